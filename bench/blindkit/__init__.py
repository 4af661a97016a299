"""The blind sets' shared code: `truth` (the checks behind every set's truth.md), `plant` (the generator: a site's
sample grid, the seeded signal pieces, the writer) and a plant as data on top of it: `plantfile` reads a set's
plant.yaml, `expr` is its expression language, `pieces` the vocabulary its expressions call, `make` the command that
draws it. docs/plants.md describes them."""
