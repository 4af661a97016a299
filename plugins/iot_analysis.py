"""Analysis tools over SkySpark: `rank`, `derive`, `excursions`, `compare_periods` — conclusions computed in code.

Their code is in `edge_agent.analysis_tools`, by family (`ranking`: rank, compare_periods; `series`: derive,
excursions); this plugin registers them. The order the names are bound below is the order the model reads the tools
in, in its prompt and its step grammar (the registry takes a plugin's Tool objects in that order): keep it.

  rank        one sensor across several assets (a named list, or every asset of a kind at a site) by an aggregate
  derive      two series aligned on timestamps → their difference, sum or ratio, and its statistics
  excursions  a series against a value or against another series (a setpoint): Yes/No, share, time, worst
  compare_periods  one sensor of one asset over two periods by an aggregate: which period had the higher/lower
"""

from edge_agent.analysis_tools import ranking, series

rank = ranking.rank
derive = series.derive
excursions = series.excursions
compare_periods = ranking.compare_periods
