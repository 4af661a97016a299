"""The checker: decides, exactly and without an LLM, whether a run did what its task asked.

`check_task(task, evidence, truth)` runs every check in `task.expect` against the run's final
answer and the JSON files it produced; expected rows, values and counts come from `truth` (the
SkySpark the run used). A check that cannot be evaluated because the SkySpark lacks the data the
task names is reported with status "error" (the task does not fit this dataset), never as a pass.
`validate_task` finds such tasks before a run.

A check reads the answer the way its reader would: a count is a number bound to what is counted (not a digit
inside a name), a yes/no is about the series and window asked, a ranking names the statistic it ranks by (or the
winner's figure), a time is the site-local time stated. Nothing here imports the agent's analysis or tools.

One module per kind of check, each holding its pair side by side: the expected value computed from the truth and
the reading of the answer against it (`value`, `energy`, `ranks`, `yes_no`, `duration`, `periods`,
`time_of_extreme`, `count`, `lists` (also `answer_mentions_all`/`_any`), `missing`, `not_recorded`, `refuses`,
`file`). `base` holds what they share (results, evidence, `TruthError`, the truth lookups), `words` the readings more
than one kind makes, and `verdict` the table dispatching `expect` to the kinds, `check_task`, `validate_task` and
`partial` (which runs the table again). How an answer's words, numbers, dates and times and a result file's rows are
read lives beside the package (`answer_text`, `answer_times`, `filerows`).
"""

from edge_agent.evaluation.checker.base import (
    CheckResult,
    CheckStatus,
    Evidence,
    TaskVerdict,
    TruthError,
    assets_of_kind,
    catalog_names,
    list_entities,
    series_of,
)
from edge_agent.evaluation.checker.duration import expected_duration
from edge_agent.evaluation.checker.energy import expected_energy
from edge_agent.evaluation.checker.file import expected_rows
from edge_agent.evaluation.checker.missing import says_missing
from edge_agent.evaluation.checker.periods import expected_periods
from edge_agent.evaluation.checker.ranks import expected_ranking
from edge_agent.evaluation.checker.time_of_extreme import expected_extreme
from edge_agent.evaluation.checker.value import expected_value
from edge_agent.evaluation.checker.verdict import check_task, validate_task
from edge_agent.evaluation.checker.yes_no import expected_excursion, expected_yes, first_word, sensor_named

__all__ = [
    "CheckResult",
    "CheckStatus",
    "Evidence",
    "TaskVerdict",
    "TruthError",
    "assets_of_kind",
    "catalog_names",
    "check_task",
    "expected_duration",
    "expected_energy",
    "expected_excursion",
    "expected_extreme",
    "expected_periods",
    "expected_ranking",
    "expected_rows",
    "expected_value",
    "expected_yes",
    "first_word",
    "list_entities",
    "says_missing",
    "sensor_named",
    "series_of",
    "validate_task",
]
