"""The model runtime (llama.cpp), constrained decoding, the model catalog, and a scripted LLM for tests."""
