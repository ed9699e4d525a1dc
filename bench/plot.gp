# Plots in the spirit of the paper's Figures 6-8, the per-repetition
# ratios to raw MPI, the RMA backends and the barrier scaling, from the
# CSV files of bench/run.sh:
#   gnuplot -e "dir='results'; depth='16'" bench/plot.gp
#   (add "; backends='ofi-tcp ofi-sockets'" for their lines in backends.png)
# writes dir/latency.png, bandwidth.png, invthroughput.png, ratios.png,
# backends.png, barrier.png. Points are medians; bars span the quartiles.
# Lines come from the jobs with GASNet's AMs through MPI (pingpong.csv,
# flood_dD.csv), and those marked "shm AMs" from the default
# configuration's jobs (pingpong_shmam.csv, flood_dD_shmam.csv).
# Columns (see bench/README.md): pingpong.csv size 4, lat_us median 8,
# q1 9, q3 10, x_mpi median 13, q1 14, q3 15; flood_d*.csv size 4,
# invtp_us median 9, q1 10, q3 11, mbps median 14, q1 15, q3 16, x_mpi
# median 17, q1 18, q3 19.
if (!exists("dir")) dir = "results"
if (!exists("depth")) depth = "16"
if (!exists("backends")) backends = ""
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1000,650 noenhanced
} else {
    set terminal png size 1000,650 noenhanced
}
set datafile separator ","
set key outside right top
set grid
set logscale x 2
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, \
           "64K" 65536, "256K" 262144, "1M" 1048576, "4M" 4194304)
set xlabel "message size (bytes; K = 2^10, M = 2^20)"

pp = dir."/pingpong.csv"
fl = dir."/flood_d".depth.".csv"
ps = dir."/pingpong_shmam.csv"
fs = dir."/flood_d".depth."_shmam.csv"
# the rows of one operation over one path ("op/path"; "-" for no path)
rows(file, key) = sprintf("< awk -F, -v k='%s' '$2 \"/\" $3 == k' '%s'", key, file)
have(file) = system("test -f '".file."' && echo yes") eq "yes"
has(file, key) = have(file) && system(sprintf("awk -F, -v k='%s' '$2 \"/\" $3 == k { f = 1 } END { print f + 0 }' '%s'", key, file)) eq "1"
field(file, key, col) = system(sprintf("awk -F, -v k='%s' '$2 \"/\" $3 == k { print $%d; exit }' '%s'", key, col, file))

lat_keys = "mpi/- ammpi_medium/- ammpi_long/- am_medium/- am_long/- get/am put/am get_nbi/am put_nbi/am get/shm put/shm put_nbi/shm"
flood_keys = "mpi/- ammpi_medium/- ammpi_long/- am_medium/- am_long/- get/am put/am get_nbi/am put_nbi/am put_nbi_bulk/am get_nbi/shm put_nbi/shm"
ratio_pp_keys = "ammpi_medium/- am_medium/- get/am put/am put_nbi/am put/shm"
ratio_fl_keys = "ammpi_medium/- am_medium/- get_nbi/am put_nbi/am put_nbi/shm"
shm_pp_keys = "am_medium/- put/am"
shm_fl_keys = "am_medium/- put_nbi/am"
# no lines from a file that is missing (the plot would fail)
if (!have(ps)) { shm_pp_keys = "" }
if (!have(fs)) { shm_fl_keys = "" }

if (have(pp)) {
    set output dir."/latency.png"
    set title "Round-trip latency (ping-pong), every layer in one job: median, bars q1-q3"
    set ylabel "round-trip time (us)"
    set logscale y
    floor = has(pp, "floor/-") ? field(pp, "floor/-", 8) + 0 : 0
    if (floor > 0) {
        plot for [k in lat_keys] rows(pp, k) using 4:8:9:10 with yerrorlines title k, \
             for [k in shm_pp_keys] rows(ps, k) using 4:8:9:10 with yerrorlines title k." (shm AMs)", \
             floor with lines dashtype 2 lc rgb "black" title "cache-line floor"
    } else {
        plot for [k in lat_keys] rows(pp, k) using 4:8:9:10 with yerrorlines title k, \
             for [k in shm_pp_keys] rows(ps, k) using 4:8:9:10 with yerrorlines title k." (shm AMs)"
    }
}

if (have(fl)) {
    set output dir."/bandwidth.png"
    set title "Flood bandwidth, network depth ".depth.", every layer in one job: median, bars q1-q3"
    set ylabel "bandwidth (MB/s, MB = 2^20 bytes)"
    unset logscale y
    set yrange [0:*]
    plot for [k in flood_keys] rows(fl, k) using 4:14:15:16 with yerrorlines title k, \
         for [k in shm_fl_keys] rows(fs, k) using 4:14:15:16 with yerrorlines title k." (shm AMs)"

    set output dir."/invthroughput.png"
    set title "Inverse throughput (flood), network depth ".depth.": median, bars q1-q3"
    set ylabel "time per operation (us)"
    set logscale y
    set yrange [*:*]
    plot for [k in flood_keys] rows(fl, k) using 4:9:10:11 with yerrorlines title k, \
         for [k in shm_fl_keys] rows(fs, k) using 4:9:10:11 with yerrorlines title k." (shm AMs)"
}

if (have(pp) && have(fl)) {
    set output dir."/ratios.png"
    set multiplot layout 1,2 title "Ratio to raw MPI in the same repetition: median, bars q1-q3 (1 = MPI)"
    set key inside top left
    set logscale y
    set yrange [*:*]
    set ylabel "time / MPI's time"
    set title "round trip"
    plot for [k in ratio_pp_keys] rows(pp, k) using 4:13:14:15 with yerrorlines title k, \
         for [k in shm_pp_keys] rows(ps, k) using 4:13:14:15 with yerrorlines title k." (shm AMs)", \
         1 with lines dashtype 2 lc rgb "black" notitle
    set title "flood, depth ".depth." (time per operation)"
    plot for [k in ratio_fl_keys] rows(fl, k) using 4:17:18:19 with yerrorlines title k, \
         for [k in shm_fl_keys] rows(fs, k) using 4:17:18:19 with yerrorlines title k." (shm AMs)", \
         1 with lines dashtype 2 lc rgb "black" notitle
    unset multiplot
    set key outside right top
}

# The RMA paths and backends (Table 4): the blocking put round trip and
# put_nbi bandwidth over each, beside raw MPI. Backends in jobs of their
# own (pingpong_NAME.csv, flood_dDEPTH_NAME.csv) show their path "ofi".
if (have(pp) && have(fl)) {
    set output dir."/backends.png"
    set multiplot layout 1,2 title "RMA paths and backends (GASNET_RMA), 2 local ranks: medians"
    set key inside top left
    set title "blocking put round trip"
    set ylabel "round-trip time (us)"
    set logscale y
    set yrange [*:*]
    plot rows(pp, "mpi/-") using 4:8 with linespoints title "raw MPI", \
         rows(pp, "put/am") using 4:8 with linespoints title "am, MPI AMs", \
         for [k in (have(ps) ? "put/am" : "")] rows(ps, k) using 4:8 with linespoints title "am, shm AMs", \
         rows(pp, "put/shm") using 4:8 with linespoints title "shm", \
         for [b in backends] rows(dir."/pingpong_".b.".csv", "put/ofi") using 4:8 with linespoints title b
    set title "put_nbi flood bandwidth, depth ".depth
    set ylabel "bandwidth (MB/s, MB = 2^20 bytes)"
    unset logscale y
    set yrange [0:*]
    plot rows(fl, "mpi/-") using 4:14 with linespoints title "raw MPI", \
         rows(fl, "put_nbi/am") using 4:14 with linespoints title "am, MPI AMs", \
         for [k in (have(fs) ? "put_nbi/am" : "")] rows(fs, k) using 4:14 with linespoints title "am, shm AMs", \
         rows(fl, "put_nbi/shm") using 4:14 with linespoints title "shm", \
         for [b in backends] rows(dir."/flood_d".depth."_".b.".csv", "put_nbi/ofi") using 4:14 with linespoints title b
    unset multiplot
    set key outside right top
}

# barrier.csv: bench,op,algorithm,ranks,iters,reps,lat_us_median (7), q1
# (8), q3 (9). Each GASNet job also timed MPI_Barrier: the first such row
# per rank count is drawn.
bar = dir."/barrier.csv"
if (have(bar)) {
    set output dir."/barrier.png"
    set title "Barrier latency vs ranks: median, bars q1-q3 (oversubscribed beyond the core count)"
    unset logscale x
    set xlabel "ranks"
    set xtics 1
    set ylabel "time per barrier (us)"
    set logscale y
    set yrange [*:*]
    algos = "AMDISSEM AMCENTRAL SHM MPI_Barrier"
    barrier_rows(a) = sprintf("< awk -F, -v a='%s' '$3 == a && !seen[$4]++' '%s'", a, bar)
    plot for [a in algos] barrier_rows(a) using 4:7:8:9 with yerrorlines title a
}
