# SPDX-License-Identifier: Apache-2.0
"""What the bench's Python tools share: reading kvroute-replay records,
decision logs, kvroute-feedsample files and /metrics pages, and the figures computed from
them; `python3 -m kvrbench.tool` holds the small helpers the bench scripts
call (free ports, scaled periods, an engine's running count, a router ready).

Import it with bench/ on PYTHONPATH (bench/lib.sh sets it for the scripts):

    PYTHONPATH=bench python3 bench/ablate/compare.py RUN_DIR

Standard library only: the bench must run wherever Debian's python3 is.
"""
