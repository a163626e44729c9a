"""The HTML report: the page (htmlreport), heap drawings (heapsvg), cost plots (costplot).
Above the test cases, below the command line: it reads test data, never runs a search."""
