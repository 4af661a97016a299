"""edge-agent: an offline ReActXen agent for industrial site gateways.

A question arrives (CLI or MQTT), a local GGUF model drives the ReActXen loop
(ReAct with Self-Ask, Review, Reflect, Distill, Tiny Trajectory Store) over tools
that read SkySpark through the Project Haystack API, and the answer goes back.
"""

from pathlib import Path

__version__ = "0.1.0"

#: The checkout (or install prefix) that holds plugins/, tts/, models/ and config/.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
