"""Text primitives, each defined once: scripts, landmarks, code, links, tokens, numbers, language
tags and identification."""
