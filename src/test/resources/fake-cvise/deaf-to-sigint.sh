#!/usr/bin/env bash
# A C-Vise that goes on after SIGINT, as one whose Python lost the signal in a finalizer does:
# called as C-Vise is (options, then the interestingness test and the file), it tests the file
# unchanged, one candidate after another, until a harder signal ends it.
trap '' INT
while [ $# -gt 2 ]; do shift; done
script=$1 file=$2
while true; do
  rm -rf try && mkdir try && cp "$file" try/ && (cd try && "$script")
done
