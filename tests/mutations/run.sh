#!/usr/bin/env bash
# Mutation check (not in CI: about a minute per mutation on 2 cores). See mutate.py for what it does
# and mutations.txt for the list. usage: tests/mutations/run.sh [--work DIR] [--jobs N] [ID ...]
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec /usr/bin/python3 "$(dirname "$0")/mutate.py" "$@"
