"""The blind sets' kit (docs/plants.md): evaluation code that makes a plant from its plant.yaml and computes a set's
truth.md from its truth.yaml, independent of the agent. `generator` (a site's sample grid, the seeded signal pieces,
the writer), `plantfile` (a plant as data on top of it; `expr` its expression language, `pieces` the vocabulary its
expressions call), `make` (draws a plant.yaml); `reading` (reads a set's plant files: the definitions of spacing, gap,
energy, excursion, "at"), `truth` (the checks behind every set's truth.md; `first` and `slots` its two older
generations), `truthfile` (reads a truth.yaml, the truth command). The commands are bench/blindkit/make.py and
bench/blindkit/truth.py; until issue 43 the kit itself lived there and in bench/blind_truthlib.py."""
