# Helpers shared by bench/run and bench/scale (sourced, not run).
now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc -l; }
lower() { echo "if ($1 < $2) $1 else $2" | bc -l; }
# best N COMMAND...: the shortest wall time of N runs, in seconds (cold caches and first ring
# allocations make single runs noisy on a 2-core machine).
best() {
  local runs=$1 fastest=999999 start t
  shift
  for _ in $(seq 1 "$runs"); do
    start=$(now); "$@" > /dev/null; t=$(elapsed "$start")
    fastest=$(lower "$t" "$fastest")
  done
  echo "$fastest"
}
# median < NUMBERS: the middle one (the lower middle of an even count).
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
row() { printf '%-28s %s\n' "$1" "$2"; }
