"""CriticTool: the official reply parser, inference protocol and metrics, as pure code."""
