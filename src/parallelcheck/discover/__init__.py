"""Discovery: which files are language versions of which article, by layout."""
