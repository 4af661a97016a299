"""The analysis tools' code — `rank`, `derive`, `excursions`, `compare_periods` — by tool family.

The plugin `plugins/iot_analysis.py` registers them, in the order it binds them (the order the model reads them in
its prompt and step grammar). Each reads the same `hisRead` samples `histories` reads, computes its conclusion by
the rules of docs/analysis.md (`edge_agent.analysis`), saves it as a JSON file and states it in its head, so an
answer starts with the winner or with "Yes"/"No":

  `ranking`  which is highest or lowest: `rank` (one sensor across assets), `compare_periods` (one series over two
             periods)
  `series`   one series against another or a limit: `derive` (difference, sum or ratio of two series),
             `excursions` (above or below a value or a setpoint)
  `args`     the four argument models, constrained like the IoT tools' to the catalog and the question's words
  `common`   what the four share: the period read, the samples read, the aggregate compared, how a head is said
"""
