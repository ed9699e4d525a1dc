# Plots in the spirit of the paper's Figures 6-8, and the barrier scaling,
# from the CSV files of bench/run.sh:
#   gnuplot -e "dir='results'; depth='16'" bench/plot.gp
#   (add "; backends='shm ofi-tcp'" for backends.png)
# writes dir/latency.png, bandwidth.png, invthroughput.png, backends.png,
# barrier.png.
if (!exists("dir")) dir = "results"
if (!exists("depth")) depth = "16"
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
# the rows of one operation (column 2), from a CSV file
rows(file, op) = sprintf("< awk -F, '$2 == \"%s\"' %s", op, file)
have(file) = system("test -f '".file."' && echo yes") eq "yes"

lat_ops = "mpi ammpi_medium ammpi_long get put get_nb put_nb get_nbi put_nbi"
flood_ops = "mpi ammpi_medium ammpi_long get put get_nb put_nb get_nbi put_nbi put_nbi_bulk"

if (have(pp)) {
set output dir."/latency.png"
# points: medians; bars: the best and worst repetitions
set title "Round-trip latency (ping-pong): median, bars from best to worst repetition"
set ylabel "round-trip time (us)"
set logscale y
plot for [op in lat_ops] rows(pp, op) using 3:6:7:8 with yerrorlines title op
}

if (have(fl)) {
set output dir."/bandwidth.png"
set title "Flood bandwidth, network depth ".depth.": median, bars from worst to best"
set ylabel "bandwidth (MB/s, MB = 2^20 bytes)"
unset logscale y
set yrange [0:*]
plot for [op in flood_ops] rows(fl, op) using 3:10:11:12 with yerrorlines title op

set output dir."/invthroughput.png"
set title "Inverse throughput (flood), network depth ".depth.": median, bars from best to worst"
set ylabel "time per operation (us)"
set logscale y
set yrange [*:*]
plot for [op in flood_ops] rows(fl, op) using 3:7:8:9 with yerrorlines title op
}

# The RMA backends (Table 4): GASNet's blocking put round trip and
# put_nbi bandwidth over each, beside raw MPI; `backends` lists the names
# bench/run.sh measured (files pingpong_NAME.csv, flood_dDEPTH_NAME.csv).
if (exists("backends") && have(pp) && have(fl)) {
set output dir."/backends.png"
set multiplot layout 1,2 title "RMA backends (GASNET_RMA), 2 local ranks: medians"
set key inside top left
set title "blocking put round trip"
set ylabel "round-trip time (us)"
set logscale y
set yrange [*:*]
plot rows(pp, "mpi") using 3:6 with linespoints title "raw MPI", \
     rows(pp, "put") using 3:6 with linespoints title "am", \
     for [b in backends] rows(dir."/pingpong_".b.".csv", "put") using 3:6 with linespoints title b
set title "put_nbi flood bandwidth, depth ".depth
set ylabel "bandwidth (MB/s, MB = 2^20 bytes)"
unset logscale y
set yrange [0:*]
plot rows(fl, "mpi") using 3:10 with linespoints title "raw MPI", \
     rows(fl, "put_nbi") using 3:10 with linespoints title "am", \
     for [b in backends] rows(dir."/flood_d".depth."_".b.".csv", "put_nbi") using 3:10 with linespoints title b
unset multiplot
set key outside right top
}

# barrier.csv: bench,op,algorithm,ranks,...,lat_us_median (column 7)
bar = dir."/barrier.csv"
if (have(bar)) {
set output dir."/barrier.png"
set title "Barrier latency vs ranks: median, bars from best to worst (oversubscribed beyond the core count)"
unset logscale x
set xlabel "ranks"
set xtics 1
set ylabel "time per barrier (us)"
set logscale y
algos = "AMDISSEM AMCENTRAL MPI_Barrier"
barrier_rows(a) = sprintf("< awk -F, '$3 == \"%s\"' %s", a, bar)
plot for [a in algos] barrier_rows(a) using 4:7:8:9 with yerrorlines title a
}
