"""Write a slide deck with python-pptx: one slide per entry of `Document.slides` (page = slide)."""

from __future__ import annotations

import io
from pathlib import Path

from pptx import Presentation
from pptx.util import Emu, Inches, Pt

from kb.demo.determinism import fixed_datetime, normalise_zip
from kb.demo.model import Document, Heading, Paragraph, Table


def write_pptx(doc: Document, path: Path) -> None:
    """Title-only layout; bullets go into a text box, a table below them."""
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    layout = prs.slide_layouts[5]  # title only
    doc.slide_pages = []
    for number, blocks in enumerate(doc.slides, start=1):
        slide = prs.slides.add_slide(layout)
        doc.slide_pages.append(number)
        title = next(b for b in blocks if isinstance(b, Heading))
        slide.shapes.title.text = title.text.text
        slide.shapes.title.text_frame.paragraphs[0].font.size = Pt(30)
        paras = [b for b in blocks if isinstance(b, Paragraph)]
        tables = [b for b in blocks if isinstance(b, Table)]
        top = Inches(1.5)
        if paras:
            height = Inches(1.0 + 0.45 * len(paras)) if tables else Inches(5.5)
            box = slide.shapes.add_textbox(Inches(0.6), top, Inches(12.1), height)
            frame = box.text_frame
            frame.word_wrap = True
            for i, para in enumerate(paras):
                p = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
                p.text = para.text
                p.font.size = Pt(16 if not tables else 14)
            top = Emu(top + height)
        for table in tables:
            rows = [table.header, *[[s.text for s in r] for r in table.rows]]
            caption = slide.shapes.add_textbox(Inches(0.6), top, Inches(12.1), Inches(0.4))
            caption.text_frame.text = table.caption.text
            caption.text_frame.paragraphs[0].font.size = Pt(12)
            shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.6), Emu(top + Inches(0.45)),
                                           Inches(12.1), Inches(0.3 * len(rows)))
            for r, values in enumerate(rows):
                for col, value in enumerate(values):
                    cell = shape.table.cell(r, col)
                    cell.text = value
                    cell.text_frame.paragraphs[0].font.size = Pt(11)
    props = prs.core_properties
    props.title = doc.title
    props.subject = f"{doc.report_id}, {doc.version_label}, {doc.date}"
    props.identifier = doc.report_id
    props.version = doc.version_label
    props.revision = doc.version
    props.keywords = f"{doc.report_id}; {doc.version_label}; {doc.date}; {doc.programme}"
    props.author = props.last_modified_by = "CMC-KB demo generator"
    props.language = doc.language
    props.created = props.modified = fixed_datetime(doc.date)
    buffer = io.BytesIO()
    prs.save(buffer)
    path.write_bytes(normalise_zip(buffer.getvalue()))
