"""The OpenAI-compatible backend: `OpenAIExecutor` (in `.executor`; openai loads on first use)."""
