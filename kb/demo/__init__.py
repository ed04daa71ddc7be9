"""The demo programme: a seeded, fictional CMC corpus (DOCX, PDF, PPTX, a scan) with ground truth.

`kb.demo.generate.generate(out, seed=7, scale=1)` writes the documents and `ground_truth.json`;
docs/demo-program.md describes the programme and docs/ground-truth.schema.json the answer key.
"""
