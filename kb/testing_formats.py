"""Fixture files for the formats beyond DOCX/PDF, built in code from kb.testing.SAMPLE.

PPTX, XLSX, HTML, Markdown, plain text, scanned pages (PNG, JPEG, multi-page TIFF, image-only and
mixed PDFs) and a German page. Scans are rendered from real text with PyMuPDF, so the words on
the page are known exactly and OCR recall can be measured against them.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import openpyxl
import pptx
import pymupdf
from openpyxl.styles import Font
from PIL import Image
from pptx.util import Inches, Pt

from kb.doctree import Block, Section
from kb.testing import SAMPLE, Outline, normalise_zip, write_pdf

SCAN_TEXT = [
    "4 Crystallisation of Compound 7",
    "The crude nitrile was dissolved in ethanol at 65 °C and cooled to 5 °C over four hours.",
    "Seeding at 40 °C gave a uniform slurry. The solid was filtered, washed with cold heptane",
    "and dried under vacuum at 45 °C to constant weight. The isolated yield was 86 percent.",
    "Purity by HPLC was 99.6 percent with the largest unknown impurity at 0.08 percent.",
    "Lot RA-X35-0107 was released for the next step after review by quality assurance.",
]

GERMAN_TEXT = [
    "5 Ergebnisse der Lösungsmittelstudie",
    "Die Reaktion wurde in Wasser bei zwanzig Grad durchgeführt und nach zwei Stunden beendet.",
    "Das Produkt wurde filtriert, mit kaltem Heptan gewaschen und im Vakuum getrocknet.",
    "Die Ausbeute betrug einundneunzig Prozent, die Reinheit war höher als erwartet.",
]


def scan_words(lines: list[str] = SCAN_TEXT) -> list[str]:
    """The ground-truth words of a rendered scan (punctuation stripped, as recall compares them)."""
    return [w.strip(".,;:()") for line in lines for w in line.split() if w.strip(".,;:()")]


def text_page(document: pymupdf.Document, lines: list[str]) -> pymupdf.Page:
    """A page with a bold heading and body lines (digital text)."""
    page = document.new_page()
    y = 90.0
    for i, line in enumerate(lines):
        page.insert_text((72, y), line, fontsize=14 if i == 0 else 10.5, fontname="hebo" if i == 0 else "helv")
        y += 30 if i == 0 else 18
    return page


def render_scan(lines: list[str] = SCAN_TEXT, *, dpi: int = 300) -> Image.Image:
    """A grey page image of the lines, as a scanner at ``dpi`` would produce."""
    document = pymupdf.open()
    page = text_page(document, lines)
    pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
    image.info["dpi"] = (dpi, dpi)
    document.close()
    return image


def write_image(path: Path, lines: list[str] = SCAN_TEXT, *, pages: int = 1, dpi: int = 300) -> Path:
    """PNG, JPEG or (multi-page when pages > 1) TIFF scan, chosen by the suffix."""
    images = [render_scan(lines, dpi=dpi) for _ in range(pages)]
    fmt = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}[path.suffix.lower()]
    extra = {"quality": 92} if fmt == "JPEG" else {"compression": "tiff_deflate"} if fmt == "TIFF" else {}
    images[0].save(path, fmt, dpi=(dpi, dpi), save_all=pages > 1, append_images=images[1:], **extra)
    return path


def add_scanned_page(document: pymupdf.Document, lines: list[str], dpi: int = 300) -> None:
    """Append an image-only page (no text layer) showing the lines."""
    buffer = io.BytesIO()
    render_scan(lines, dpi=dpi).save(buffer, "PNG")
    page = document.new_page()
    page.insert_image(page.rect, stream=buffer.getvalue())


def write_scanned_pdf(path: Path, lines: list[str] = SCAN_TEXT, *, pages: int = 1) -> Path:
    """An image-only PDF: every page is a scan."""
    document = pymupdf.open()
    for _ in range(pages):
        add_scanned_page(document, lines)
    document.save(str(path), garbage=3, deflate=True, no_new_id=True)
    document.close()
    return path


def write_mixed_pdf(path: Path, outline: Outline = SAMPLE) -> Path:
    """The digital sample report with one scanned page appended: text layer kept, scan OCR'd."""
    write_pdf(path, outline)
    document = pymupdf.open(stream=path.read_bytes(), filetype="pdf")
    add_scanned_page(document, SCAN_TEXT)
    document.save(str(path), garbage=3, deflate=True, no_new_id=True)
    document.close()
    return path


def write_german_pdf(path: Path) -> Path:
    """A digital one-page German report section."""
    document = pymupdf.open()
    text_page(document, GERMAN_TEXT)
    document.save(str(path), garbage=3, deflate=True, no_new_id=True)
    document.close()
    return path


def write_pptx(path: Path, outline: Outline = SAMPLE) -> Path:
    """A deck: title slide, one slide per top-level section (bullets), a table slide, a two-column
    slide whose right box is drawn first (reading order), and speaker notes."""
    deck = pptx.Presentation()
    deck.core_properties.title = outline.title
    deck.core_properties.identifier = outline.report_line
    deck.core_properties.created = deck.core_properties.modified = dt.datetime(2019, 6, 12)
    deck.core_properties.last_modified_by = deck.core_properties.author = "kb.testing"
    slide = deck.slides.add_slide(deck.slide_layouts[0])
    slide.shapes.title.text = outline.title
    slide.placeholders[1].text = outline.report_line
    for level, heading, paragraphs in outline.sections:
        if level != 1:
            continue
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = heading
        body = slide.placeholders[1].text_frame
        body.text = paragraphs[0]
        for text in paragraphs[1:]:
            body.add_paragraph().text = text
        slide.notes_slide.notes_text_frame.text = f"Speaker note for {heading}."
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Solvent screen"
    rows = outline.table
    shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.5), Inches(1.5), Inches(9), Inches(3))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            shape.table.cell(r, c).text = value
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Two columns"
    right = slide.shapes.add_textbox(Inches(5.2), Inches(1.5), Inches(4.3), Inches(2))
    right.text_frame.text = "Right column: phase split after 20 min."
    left = slide.shapes.add_textbox(Inches(0.5), Inches(1.5), Inches(4.3), Inches(2))
    left.text_frame.text = "Left column: 2-MeTHF charged at 10 vol."
    for box in (left, right):
        box.text_frame.paragraphs[0].runs[0].font.size = Pt(18)
    deck.save(str(path))
    normalise_zip(path)
    return path


def write_xlsx(path: Path, outline: Outline = SAMPLE) -> Path:
    """A workbook: a caption row above a header-row table, a second table below an empty row,
    and a second sheet of DoE runs with numbers."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Solvent screen"
    sheet["A1"] = "Table 1: Solvent screen for step 3"
    for r, row in enumerate(outline.table, start=2):
        for c, value in enumerate(row, start=1):
            cell = sheet.cell(row=r, column=c, value=float(value) if value.replace(".", "").isdigit() else value)
            if r == 2:
                cell.font = Font(bold=True)
    sheet.cell(row=8, column=2, value="Lot")
    sheet.cell(row=8, column=3, value="Released")
    sheet.cell(row=9, column=2, value="RA-X35-0042")
    sheet.cell(row=9, column=3, value=dt.datetime(2019, 6, 12))
    runs = book.create_sheet("DoE")
    runs.append(["Run", "Temperature (°C)", "Equivalents", "Yield (%)"])
    for i, (t, eq, y) in enumerate([(40, 1.1, 82.5), (60, 1.1, 90.1), (40, 1.5, 85.0), (60, 1.5, 93.4)], start=1):
        runs.append([i, t, eq, y])
    book.properties.title = "Solvent screen data"
    book.properties.created = book.properties.modified = dt.datetime(2019, 6, 12)
    book.save(str(path))
    normalise_zip(path)
    return path


def outline_markdown(outline: Outline = SAMPLE) -> str:
    lines = [f"# {outline.title}", "", outline.report_line, ""]
    for level, heading, paragraphs in outline.sections:
        lines += ["#" * (level + 1) + " " + heading, ""]
        lines += [p + "\n" for p in paragraphs]
        if heading == outline.table_after:
            rows = outline.table
            lines.append("| " + " | ".join(rows[0]) + " |")
            lines.append("|" + "---|" * len(rows[0]))
            lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
            lines += ["", "- Charge 2-MeTHF (10 vol).", "- Heat to 60 °C.", ""]
    return "\n".join(lines)


def write_markdown(path: Path, outline: Outline = SAMPLE) -> Path:
    path.write_text(outline_markdown(outline), encoding="utf-8")
    return path


def write_html(path: Path, outline: Outline = SAMPLE) -> Path:
    """An exported web page: nav and script to drop, loose div text, a table with a merged header."""
    parts = [f"<html><head><title>{outline.title}</title><script>var x = 1;</script></head><body>",
             "<nav><a href='/'>Home</a> | <a href='/docs'>Docs</a></nav>", f"<h1>{outline.title}</h1>",
             f"<div>{outline.report_line}</div>"]
    for level, heading, paragraphs in outline.sections:
        parts.append(f"<h{level + 1}>{heading}</h{level + 1}>")
        parts += [f"<p>{p}</p>" for p in paragraphs]
        if heading == outline.table_after:
            rows = outline.table
            parts.append("<table><caption>Table 1: Solvent screen</caption><thead><tr>")
            parts += [f"<th>{h}</th>" for h in rows[0]]
            parts.append("</tr></thead><tbody>")
            for row in rows[1:]:
                parts.append("<tr>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>")
            parts.append("<tr><td colspan='2'>Merged note</td><td>80</td></tr></tbody></table>")
            parts.append("<ul><li>Charge 2-MeTHF (10 vol).</li><li>Heat to 60 °C.</li></ul>")
    parts.append("<footer><script>track()</script></footer></body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def write_text(path: Path, outline: Outline = SAMPLE) -> Path:
    """Plain text: underlined title, numbered headings, a form feed between top-level sections."""
    lines = [outline.title, "=" * len(outline.title), "", outline.report_line, ""]
    for i, (level, heading, paragraphs) in enumerate(outline.sections):
        if level == 1 and i > 0:
            lines.append("\f")
        lines += [heading, ""]
        for p in paragraphs:
            lines += [p, ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def all_blocks(section: Section) -> list[Block]:
    """Every block under a section, in reading order."""
    out: list[Block] = []
    for child in section.children:
        out.extend(all_blocks(child) if isinstance(child, Section) else [child])
    return out


def all_sections(section: Section) -> list[Section]:
    """Every section under a section, depth first."""
    out: list[Section] = []
    for child in section.sections():
        out.extend([child, *all_sections(child)])
    return out
