"""Plain data: article sets, documents and their blocks, aligned articles, findings."""
