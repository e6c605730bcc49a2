import PDFDocument from 'pdfkit';
import { textBlocks, type HandbookDocument } from '../../pages/handbook-document.js';

/** The published handbook as a PDF (pdfkit's built-in Helvetica: no font files of our own). */
export function renderHandbookPdf(doc: HandbookDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'LETTER', margin: 64, info: { Title: `${doc.businessName} employee handbook`, Author: doc.businessName } });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.font('Helvetica-Bold').fontSize(20).text(`${doc.businessName} employee handbook`);
    pdf.font('Helvetica').fontSize(10).text(`Version ${doc.version}, published ${doc.publishedAt.slice(0, 10)}. Covers ${doc.regionNames.join(', ')}.`).moveDown();
    for (const section of doc.sections) {
      pdf.font('Helvetica-Bold').fontSize(15).text(section.heading).moveDown(0.3);
      for (const policy of section.policies) {
        pdf.font('Helvetica-Bold').fontSize(12).text(policy.title).moveDown(0.2);
        for (const block of textBlocks(policy.text)) {
          if (block.kind === 'paragraph') pdf.font('Helvetica').fontSize(10.5).text(block.text).moveDown(0.4);
          else pdf.font('Helvetica').fontSize(10.5).list(block.items, { bulletRadius: 2 }).moveDown(0.4);
        }
      }
    }
    pdf.end();
  });
}
