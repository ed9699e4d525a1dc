#!/bin/bash
# Every file of a source folder has a line of its own in the folder's
# README.md (a list line, "- `name`...", naming it), and the first name of
# each such line is a file that exists there. Prints what is missing or
# stale and fails; run by make check (tests/suite.sh).
cd "$(dirname "$0")/.." || exit 2
folders="ammpi base barrier coll conduit core-mpi core-native extended memkind ratomic shmam tools include launch scripts"
bad=0
for d in $folders; do
    readme=$d/README.md
    if [ ! -f "$readme" ]; then
        echo "check-readmes: $d has no README.md"
        bad=1
        continue
    fi
    for f in "$d"/*; do
        name=${f##*/}
        [ -f "$f" ] && [ "$name" != README.md ] || continue
        grep -q -- "^- .*\`$name\`" "$readme" || { echo "check-readmes: $readme has no line for $name"; bad=1; }
    done
    # the first name on each list line must exist (a stale entry fails)
    while IFS= read -r name; do
        [ -e "$d/$name" ] || { echo "check-readmes: $readme lists $name, which $d does not have"; bad=1; }
    done < <(sed -n 's/^- `\([A-Za-z0-9_.-]*\)`.*/\1/p' "$readme")
done
[ $bad = 0 ] && echo "check-readmes: ok ($folders)"
exit $bad
