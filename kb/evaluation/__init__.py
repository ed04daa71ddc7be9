"""The evaluation harness: question designer, three tiers, baselines and the report (issue 12)."""
