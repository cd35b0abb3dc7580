#!/bin/sh
# A shell-shape plugin command: its args, then the user's words.
echo "$2 from $(basename "$PWD"): $3 $4"
echo "a note on stderr" >&2
