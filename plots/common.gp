# SPDX-License-Identifier: GPL-2.0
# common.gp - loaded by every vmscope plot script (plots/KIND.gp): the
# terminal, the colours, the time axis and the defaults for a script run by
# hand. `vmscope plot` copies it next to the script and the data and runs
# gnuplot there with these variables (gnuplot -e):
#
#   kind           the figure: the script's name without .gp
#   outfmt         'png', 'svg' or 'txt' (gnuplot's dumb terminal)
#   width, height  pixels (png, svg) or characters (txt: 80x25)
#   outfile        the file to write
#   data_a         the run's data file, KIND-a.dat
#   data_b         the compared run's, KIND-b.dat, or '' for one run
#   xmin, xmax     the x range (seconds from the start of the run; the
#                  stalls figure: microseconds)
#   binw_ms        scan and shrinkers: the width of a time bin, ms
#
# Run by hand in a `--keep` directory, `gnuplot KIND.gp` draws KIND.png of
# KIND-a.dat with the defaults below; give variables with -e to change them
# (vmscope prints the full command it used). The data files are documented
# in their `# columns:` comments and in docs/plot.md.
#
# Text from the trace (task and shrinker names) and the run names come only
# from the data files (columnhead(), ytic()); vmscope has already replaced
# anything but [A-Za-z0-9_.:/+-] in them. Enhanced text is off so that '_'
# and '^' print as they are.

if (!exists("kind")) kind = 'plot'
if (!exists("outfmt")) outfmt = 'png'
if (!exists("width")) width = (outfmt eq 'txt') ? 80 : 900
if (!exists("height")) height = (outfmt eq 'txt') ? 25 : 600
if (!exists("outfile")) outfile = kind.'.'.outfmt
if (!exists("data_a")) data_a = kind.'-a.dat'
if (!exists("data_b")) data_b = ''

if (outfmt eq 'png') {
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size width,height noenhanced font 'sans,10'
	} else {
		set terminal png size width,height noenhanced
	}
} else {
	if (outfmt eq 'svg') {
		set terminal svg size width,height noenhanced font 'sans,10' background '#ffffff'
	} else {
		set terminal dumb size width,height nofeed noenhanced
	}
}
set output outfile
text = (outfmt eq 'txt')

# One run, or two: files, nruns, and the legend text of a series. With two
# runs each title starts with the run's name (column 1 of the header row of
# the block being drawn); run B draws with the dashed line types 11-18.
compare = (data_b ne '')
files = data_a.(compare ? ' '.data_b : '')
nruns = words(files)
t(s) = compare ? columnhead(1).' '.s : s
lt_of(k, i) = k + 10 * (i - 1)

colors = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f'
do for [k = 1:8] {
	set linetype k linecolor rgb word(colors, k) linewidth 1.5 dashtype 1 pointtype 7 pointsize 0.6
	set linetype k + 10 linecolor rgb word(colors, k) linewidth 1.5 dashtype 2 pointtype 6 pointsize 0.6
}

# The y axis label: the script sets yl and expands @YLABEL. Images get it
# along the axis; text gets it at the left, ylrow lines above the plot,
# because the dumb terminal drops a label wider than the left margin (a plot
# with a title of its own puts the label above the title: see SINGLE).
ylrow = 1
YLABEL = "if (text) { set label 99 yl at screen 0, graph 1 left offset 1, ylrow } else { set ylabel yl }"
SINGLE = "if (text) { set tmargin 3; ylrow = 2 }"

set grid
set key below
set xlabel 'time since the start of the run (s)'
if (exists("xmin") && exists("xmax")) set xrange [xmin:xmax]
