"""Moved to w2c_tui/present/numbers.py (display formatting belongs to presentation).

Kept only for the modules another change has open (io/report/*, tui/dashboard/*,
cli/agreement_text.py), which still import it from here; once that change lands they import
w2c_tui.present.numbers and this module goes."""

from w2c_tui.present.numbers import F1_UNIT as F1_UNIT
from w2c_tui.present.numbers import METRICS_HEADERS as METRICS_HEADERS
from w2c_tui.present.numbers import STABILITY_HEADERS as STABILITY_HEADERS
from w2c_tui.present.numbers import estimate_text as estimate_text
from w2c_tui.present.numbers import f1 as f1
from w2c_tui.present.numbers import metrics_cells as metrics_cells
from w2c_tui.present.numbers import num as num
from w2c_tui.present.numbers import pct as pct
from w2c_tui.present.numbers import stability_cells as stability_cells
