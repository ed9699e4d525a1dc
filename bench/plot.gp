# The plots of make bench, one question per panel, from the CSV files of
# bench/run.sh:
#   gnuplot -e "dir='results'; depth='16'" bench/plot.gp
#   (add "; backends='ofi-tcp ofi-sockets'" for their lines in backends.png)
# writes dir/latency.png, bandwidth.png, invthroughput.png (the paper's
# Figures 6-8), ratios.png, backends.png and barrier.png. Each figure has a
# panel "over MPI" (what each layer costs on top of MPI: the jobs with
# GASNet's AMs through MPI, pingpong.csv and flood_dD.csv) and one "on
# one host" (the default configuration's jobs: AMs through the shared-
# memory rings, puts and gets as copies; pingpong_shmam.csv and
# flood_dD_shmam.csv), each beside raw MPI measured in the same job.
# Series are named in words; legends sit under the panels, off the data;
# the title names the machine, MPI and date (dir/machine.txt). Points are
# medians; bars span the quartiles.
# Columns (see bench/README.md): pingpong.csv size 4, lat_us median 8,
# q1 9, q3 10, x_mpi median 13, q1 14, q3 15; flood_d*.csv size 4,
# invtp_us median 9, q1 10, q3 11, mbps median 14, q1 15, q3 16, x_mpi
# median 17, q1 18, q3 19.
if (!exists("dir")) dir = "results"
if (!exists("depth")) depth = "16"
if (!exists("backends")) backends = ""
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,760 noenhanced font ",11"
} else {
    set terminal png size 1400,760 noenhanced
}
set datafile separator ","
# colours that stay apart on screen and in print (ColorBrewer's Dark2)
set linetype 1 lc rgb "#1b9e77"
set linetype 2 lc rgb "#d95f02"
set linetype 3 lc rgb "#7570b3"
set linetype 4 lc rgb "#e7298a"
set linetype 5 lc rgb "#66a61e"
set linetype 6 lc rgb "#a6761d"
set linetype cycle 6
set grid
set key below left Left reverse width 4 samplen 3
set logscale x 2
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, \
           "64K" 65536, "256K" 262144, "1M" 1048576, "4M" 4194304)
# (the size axis is named in each figure's title: under the panels, gnuplot
# draws the legend over an x label)
unset xlabel

have(file) = system("test -f '".file."' && echo yes") eq "yes"
machine_field(k) = system(sprintf("sed -n 's/^%s: //p' '%s/machine.txt' 2>/dev/null | head -1", k, dir))
cpu = machine_field("cpu")
mpi = system(sprintf("sed -n 's/^mpi: MPICH Version: *\\([^;]*\\);MPICH Device: *\\(.*\\)/MPICH \\1, \\2/p' '%s/machine.txt' 2>/dev/null", dir))
when = machine_field("date")
machine = sprintf("%s; %s; %s", cpu, mpi, when)
setup = machine."; 2 ranks on one host; x: message size in bytes (K = 2^10, M = 2^20)"

pp = dir."/pingpong.csv"
fl = dir."/flood_d".depth.".csv"
ps = dir."/pingpong_shmam.csv"
fs = dir."/flood_d".depth."_shmam.csv"
# the rows of one operation over one path ("op/path"; "-" for no path)
rows(file, key) = sprintf("< awk -F, -v k='%s' '$2 \"/\" $3 == k' '%s'", key, file)
has(file, key) = have(file) && system(sprintf("awk -F, -v k='%s' '$2 \"/\" $3 == k { f = 1 } END { print f + 0 }' '%s'", key, file)) eq "1"
field(file, key, col) = system(sprintf("awk -F, -v k='%s' '$2 \"/\" $3 == k { print $%d; exit }' '%s'", key, col, file))

# Series in words. In the MPI jobs "am" means AMs through MPI; in the
# shared-memory jobs through the rings.
name_mpi(k) = k eq "mpi/-" ? "raw MPI (Send/Recv)" : \
    k eq "ammpi_medium/-" ? "AMMPI Medium (the AM layer alone)" : \
    k eq "ammpi_long/-" ? "AMMPI Long (the AM layer alone)" : \
    k eq "am_medium/-" ? "GASNet AM Medium over MPI" : \
    k eq "am_long/-" ? "GASNet AM Long over MPI" : \
    k eq "get/am" ? "blocking get over MPI AMs" : \
    k eq "put/am" ? "blocking put over MPI AMs" : \
    k eq "get_nbi/am" ? "nbi get over MPI AMs" : \
    k eq "put_nbi/am" ? "nbi put over MPI AMs" : \
    k eq "put_nbi_bulk/am" ? "bulk nbi put over MPI AMs" : k
name_shm(k) = k eq "mpi/-" ? "raw MPI (Send/Recv)" : \
    k eq "am_medium/-" ? "GASNet AM Medium through shared memory" : \
    k eq "am_long/-" ? "GASNet AM Long through shared memory" : \
    k eq "get/am" ? "blocking get over shared-memory AMs" : \
    k eq "put/am" ? "blocking put over shared-memory AMs" : \
    k eq "get_nbi/am" ? "nbi get over shared-memory AMs" : \
    k eq "put_nbi/am" ? "nbi put over shared-memory AMs" : \
    k eq "get/shm" ? "blocking get: a copy from the mapped segment" : \
    k eq "put/shm" ? "blocking put: a copy into the mapped segment" : \
    k eq "get_nbi/shm" ? "nbi get: a copy from the mapped segment" : \
    k eq "put_nbi/shm" ? "nbi put: a copy into the mapped segment" : k

# Which series answer which question. The MPI series is drawn black and
# dashed in every panel it is in.
lat_mpi = "ammpi_medium/- am_medium/- put/am get/am"
lat_shm = "am_medium/- put/am put/shm get/shm"
flood_mpi = "ammpi_medium/- am_long/- put_nbi/am put_nbi_bulk/am get_nbi/am"
flood_shm = "am_medium/- put_nbi/am put_nbi/shm get_nbi/shm"
style_mpi = "with yerrorlines lc rgb 'black' dashtype 2 pt 7 ps 0.6"
ref = "mpi/-"
if (!have(ps)) { lat_shm = "" }
if (!have(fs)) { flood_shm = "" }
# a panel's shared-memory series come from its own job's MPI row
shm_pp = have(ps) ? ps : pp
shm_fl = have(fs) ? fs : fl

if (have(pp)) {
    set output dir."/latency.png"
    set multiplot layout 1,2 title "Round-trip latency (ping-pong): median, bars q1-q3\n".setup
    set ylabel "round-trip time (us)"
    set logscale y
    set title "over MPI: what each layer adds"
    plot rows(pp, ref) using 4:8:9:10 @style_mpi title name_mpi(ref), \
         for [k in lat_mpi] rows(pp, k) using 4:8:9:10 with yerrorlines pt 7 ps 0.6 title name_mpi(k)
    set title "on one host, against MPI"
    floor = has(shm_pp, "floor/-") ? field(shm_pp, "floor/-", 8) + 0 : 0
    plot rows(shm_pp, ref) using 4:8:9:10 @style_mpi title name_shm(ref), \
         for [k in lat_shm] rows(shm_pp, k) using 4:8:9:10 with yerrorlines pt 7 ps 0.6 title name_shm(k), \
         for [f in (floor > 0 ? "1" : "")] floor with lines dashtype 3 lc rgb "gray40" \
             title sprintf("cache-line floor (%.2f us)", floor)
    unset multiplot
}

if (have(fl)) {
    set output dir."/bandwidth.png"
    set multiplot layout 1,2 title "Flood bandwidth, ".depth." operations in flight: median, bars q1-q3\n".setup
    set ylabel "bandwidth (MB/s, MB = 2^20 bytes)"
    unset logscale y
    set yrange [0:*]
    set title "over MPI: what each layer adds"
    plot rows(fl, ref) using 4:14:15:16 @style_mpi title name_mpi(ref), \
         for [k in flood_mpi] rows(fl, k) using 4:14:15:16 with yerrorlines pt 7 ps 0.6 title name_mpi(k)
    set title "on one host, against MPI"
    plot rows(shm_fl, ref) using 4:14:15:16 @style_mpi title name_shm(ref), \
         for [k in flood_shm] rows(shm_fl, k) using 4:14:15:16 with yerrorlines pt 7 ps 0.6 title name_shm(k)
    unset multiplot

    set output dir."/invthroughput.png"
    set multiplot layout 1,2 title "Inverse throughput (flood), ".depth." operations in flight: median, bars q1-q3\n".setup
    set ylabel "time per operation (us)"
    set logscale y
    set yrange [*:*]
    set title "over MPI: what each layer adds"
    plot rows(fl, ref) using 4:9:10:11 @style_mpi title name_mpi(ref), \
         for [k in flood_mpi] rows(fl, k) using 4:9:10:11 with yerrorlines pt 7 ps 0.6 title name_mpi(k)
    set title "on one host, against MPI"
    plot rows(shm_fl, ref) using 4:9:10:11 @style_mpi title name_shm(ref), \
         for [k in flood_shm] rows(shm_fl, k) using 4:9:10:11 with yerrorlines pt 7 ps 0.6 title name_shm(k)
    unset multiplot
}

# Ratios to MPI taken within each repetition: the paper's question (what a
# layer costs over MPI) and ours (what one host gains), for round trips and
# floods.
if (have(pp) && have(fl)) {
    set terminal push
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size 1400,1100 noenhanced font ",11"
    } else {
        set terminal png size 1400,1100 noenhanced
    }
    set output dir."/ratios.png"
    set multiplot layout 2,2 title "Time / raw MPI's time in the same repetition: median, bars q1-q3 (below 1: faster than MPI)\n".setup
    set logscale y
    set yrange [*:*]
    set ylabel "time / MPI's time"
    set title "round trip over MPI"
    plot for [k in lat_mpi] rows(pp, k) using 4:13:14:15 with yerrorlines pt 7 ps 0.6 title name_mpi(k), \
         1 with lines dashtype 2 lc rgb "black" title "raw MPI = 1"
    set title "round trip on one host"
    plot for [k in lat_shm] rows(shm_pp, k) using 4:13:14:15 with yerrorlines pt 7 ps 0.6 title name_shm(k), \
         1 with lines dashtype 2 lc rgb "black" title "raw MPI = 1"
    set title "flood over MPI (time per operation)"
    plot for [k in flood_mpi] rows(fl, k) using 4:17:18:19 with yerrorlines pt 7 ps 0.6 title name_mpi(k), \
         1 with lines dashtype 2 lc rgb "black" title "raw MPI = 1"
    set title "flood on one host (time per operation)"
    plot for [k in flood_shm] rows(shm_fl, k) using 4:17:18:19 with yerrorlines pt 7 ps 0.6 title name_shm(k), \
         1 with lines dashtype 2 lc rgb "black" title "raw MPI = 1"
    unset multiplot
    set terminal pop
}

# The RMA paths and backends (Table 4): the blocking put round trip and
# put_nbi bandwidth over each, beside raw MPI. Backends in jobs of their
# own (pingpong_NAME.csv, flood_dDEPTH_NAME.csv) show their path "ofi".
backend_name(b) = b eq "ofi-tcp" ? "libfabric RMA (tcp;ofi_rxm provider)" : \
    b eq "ofi-sockets" ? "libfabric RMA (sockets provider)" : "libfabric RMA (".b.")"
if (have(pp) && have(fl)) {
    set output dir."/backends.png"
    set multiplot layout 1,2 title "Puts over each RMA path (GASNET_RMA): medians\n".setup
    set title "blocking put round trip"
    set ylabel "round-trip time (us)"
    set logscale y
    set yrange [*:*]
    plot rows(pp, ref) using 4:8 with linespoints lc rgb "black" dashtype 2 pt 7 ps 0.6 title "raw MPI (Send/Recv)", \
         rows(pp, "put/am") using 4:8 with linespoints pt 7 ps 0.6 title "AMs through MPI", \
         for [k in (have(ps) ? "put/am" : "")] rows(ps, k) using 4:8 with linespoints pt 7 ps 0.6 title "AMs through shared memory", \
         rows(pp, "put/shm") using 4:8 with linespoints pt 7 ps 0.6 title "a copy into the mapped segment", \
         for [b in backends] rows(dir."/pingpong_".b.".csv", "put/ofi") using 4:8 with linespoints pt 7 ps 0.6 title backend_name(b)
    set title "nbi put bandwidth, ".depth." in flight"
    set ylabel "bandwidth (MB/s, MB = 2^20 bytes)"
    unset logscale y
    set yrange [0:*]
    plot rows(fl, ref) using 4:14 with linespoints lc rgb "black" dashtype 2 pt 7 ps 0.6 title "raw MPI (Send/Recv)", \
         rows(fl, "put_nbi/am") using 4:14 with linespoints pt 7 ps 0.6 title "AMs through MPI", \
         for [k in (have(fs) ? "put_nbi/am" : "")] rows(fs, k) using 4:14 with linespoints pt 7 ps 0.6 title "AMs through shared memory", \
         rows(fl, "put_nbi/shm") using 4:14 with linespoints pt 7 ps 0.6 title "a copy into the mapped segment", \
         for [b in backends] rows(dir."/flood_d".depth."_".b.".csv", "put_nbi/ofi") using 4:14 with linespoints pt 7 ps 0.6 title backend_name(b)
    unset multiplot
}

# barrier.csv: bench,op,algorithm,ranks,iters,reps,lat_us_median (7), q1
# (8), q3 (9). Each GASNet job also timed MPI_Barrier: the first such row
# per rank count is drawn.
bar = dir."/barrier.csv"
barrier_name(a) = a eq "AMDISSEM" ? "GASNet dissemination barrier over AMs (AMDISSEM)" : \
    a eq "AMCENTRAL" ? "GASNet central barrier over AMs (AMCENTRAL)" : \
    a eq "SHM" ? "GASNet barrier through shared memory (SHM)" : "MPI_Barrier"
if (have(bar)) {
    set output dir."/barrier.png"
    set title "Barrier latency against ranks: median, bars q1-q3 (oversubscribed beyond the core count)\n".machine
    unset logscale x
    set xlabel "ranks"
    set xtics 1
    set ylabel "time per barrier (us)"
    set logscale y
    set yrange [*:*]
    algos = "AMDISSEM AMCENTRAL SHM"
    barrier_rows(a) = sprintf("< awk -F, -v a='%s' '$3 == a && !seen[$4]++' '%s'", a, bar)
    plot barrier_rows("MPI_Barrier") using 4:7:8:9 @style_mpi title barrier_name("MPI_Barrier"), \
         for [a in algos] barrier_rows(a) using 4:7:8:9 with yerrorlines pt 7 ps 0.6 title barrier_name(a)
}
