#!/bin/bash
# usage: fleet6-drills.sh OUTDIR label:root [label:root ...]   (runs each once, in order)
out=$1; shift
mkdir -p "$out"
for spec in "$@"; do
  label=${spec%%:*}; root=${spec#*:}
  n=$(ls "$out" | grep -c "^$label-")
  f="$out/$label-$((n+1)).json"
  echo "$(date +%T) start $label $root load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/log.txt"
  PYTHONPATH=/work/wt-fleet6 /work/main/.venv/bin/python /work/wt-fleet6/bench/mqtt_drills.py --root "$root" --only victims --out "$f" >> "$out/log.txt" 2>&1
  echo "$(date +%T) end $label load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/log.txt"
done
