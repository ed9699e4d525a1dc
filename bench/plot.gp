# Plots in the spirit of the paper's Figures 6-8, and the barrier scaling,
# from the CSV files of bench/run.sh:
#   gnuplot -e "dir='results'; depth='16'" bench/plot.gp
# writes dir/latency.png, bandwidth.png, invthroughput.png, barrier.png.
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
set format x "%.0s%cB"
set xlabel "message size (bytes)"

pp = dir."/pingpong.csv"
fl = dir."/flood_d".depth.".csv"
# the rows of one operation (column 2), from a CSV file
rows(file, op) = sprintf("< awk -F, '$2 == \"%s\"' %s", op, file)

lat_ops = "mpi ammpi_medium ammpi_long get put get_nb put_nb get_nbi put_nbi"
flood_ops = "mpi ammpi_medium ammpi_long get put get_nb put_nb get_nbi put_nbi put_nbi_bulk"

set output dir."/latency.png"
set title "Round-trip latency (ping-pong), median of repetitions"
set ylabel "round-trip time (us)"
set logscale y
plot for [op in lat_ops] rows(pp, op) using 3:6 with linespoints title op

set output dir."/bandwidth.png"
set title "Flood bandwidth, network depth ".depth." (MB = 2^20 bytes)"
set ylabel "bandwidth (MB/s)"
unset logscale y
set yrange [0:*]
plot for [op in flood_ops] rows(fl, op) using 3:10 with linespoints title op

set output dir."/invthroughput.png"
set title "Inverse throughput (flood), network depth ".depth
set ylabel "time per operation (us)"
set logscale y
set yrange [*:*]
plot for [op in flood_ops] rows(fl, op) using 3:7 with linespoints title op

# barrier.csv: bench,op,algorithm,ranks,...,lat_us_median (column 7)
bar = dir."/barrier.csv"
set output dir."/barrier.png"
set title "Barrier latency vs ranks (oversubscribed beyond the core count)"
unset logscale x
set format x "%g"
set xlabel "ranks"
set xtics 1
set ylabel "time per barrier (us)"
set logscale y
algos = "AMDISSEM AMCENTRAL MPI_Barrier"
barrier_rows(a) = sprintf("< awk -F, '$3 == \"%s\"' %s", a, bar)
plot for [a in algos] barrier_rows(a) using 4:7 with linespoints title a
