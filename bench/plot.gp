# Plots of the benchmark suite; bench/run.sh calls it as
#	gnuplot -e "out='bench/out'" bench/plot.gp
# rates.dat: workload ours slurm limit ("-" where missing);
# w5_latency.tsv (and slurm_w5_latency.tsv when Slurm ran): one
# submit-to-start latency in ms per line, sorted.
if (!exists("out")) out = "bench/out"

set terminal pngcairo size 900,500 noenhanced font ",10"
set datafile missing "-"

set output out."/rates.png"
set title "Rates: ours, Slurm and the machine's limit (higher is better)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "per second"
set logscale y
set yrange [1:*]
set key top right
set xtics rotate by -20
plot out."/rates.dat" using 2:xtic(1) title "ours", \
     "" using 3 title "Slurm", \
     "" using 4 title "limit"

unset logscale y
set yrange [0:1]
set xtics norotate
set style data lines
set output out."/w5_latency.png"
set title "Workload 5: submit-to-start latency, cumulative distribution"
set xlabel "ms"
set ylabel "fraction of jobs started within"
set key bottom right
set logscale x
set xrange [*:*]
n = system("wc -l < '".out."/w5_latency.tsv'") + 0
slurm = system("[ -s '".out."/slurm_w5_latency.tsv' ] && wc -l < '".out."/slurm_w5_latency.tsv' || echo 0") + 0
if (slurm > 0) {
	plot out."/w5_latency.tsv" using 1:(($0 + 1) / n) title "ours" lw 2, \
	     out."/slurm_w5_latency.tsv" using 1:(($0 + 1) / slurm) title "Slurm" lw 2
} else {
	plot out."/w5_latency.tsv" using 1:(($0 + 1) / n) title "ours" lw 2
}
