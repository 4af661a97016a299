"""The blind sets' shared code: `truth` (the checks behind every set's truth.md) and `plant` (the generator
scaffolding behind every set's make_plant.py). docs/plants.md describes both."""
