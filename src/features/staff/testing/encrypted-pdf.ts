// A password-protected PDF, for the tests (unit, stand-in, e2e): one page, its cross-reference
// table exact, and the trailer's /Encrypt the standard security handler writes (RC4 128-bit,
// revision 3). Its content is not really encrypted: what the checks read is the trailer, and
// a file whose trailer names /Encrypt cannot be stamped whatever its streams hold. Never
// imported by the app.

/** The /Encrypt dictionary of a file with a user password (Acrobat's "RC4 128-bit"). */
const ENCRYPT =
  '<< /Filter /Standard /V 2 /R 3 /Length 128 ' + `/O <${'6f'.repeat(32)}> /U <${'75'.repeat(32)}> /P -3904 >>`;

export function encryptedPdf(text = 'Locked'): Uint8Array {
  const shown = text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, '\\$&');
  const content = `BT /F1 18 Tf 72 760 Td (${shown}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const id = `<${'0123456789abcdef'.repeat(2)}>`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt ${ENCRYPT} /ID [${id} ${id}] >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
