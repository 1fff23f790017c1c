import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFStream,
  PDFString,
  decodePDFRawStream,
} from '@cantoo/pdf-lib';

/**
 * What the e-invoice library leaves out or gets wrong, put right on the finished files (its
 * internals are private; its input schema refuses what its CII mapping reads):
 * - BT-33 (the seller's register entry): the schema takes it as `cbc:CompanyLegalForm` while the
 *   CII mapping reads `cbc:LegalForm`, so it never reaches the XML;
 * - the Factur-X EN 16931 profile drops the order number (BT-13), which the plain CII keeps: the
 *   PDF embeds the standalone XML instead, so both files carry the same invoice;
 * - the PDF's document title is the library's English one and differs from its XMP title: both
 *   get the invoice's title in the document's language.
 */

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * BT-33 into the CII: `ram:Description` of the seller follows its `ram:Name` (the CII schema's
 * order: ID, GlobalID, Name, RoleCode, Description, SpecifiedLegalOrganization ...).
 */
export function withSellerLegalInformation(xml: string, register: string): string {
  if (!register) return xml;
  return xml.replace(
    /(<ram:SellerTradeParty>[\s\S]*?<\/ram:Name>)(\s*)(<ram:Description>)?/,
    (match, party: string, space: string, description?: string) =>
      // A library that writes it itself keeps its own.
      description
        ? match
        : `${party}${space}<ram:Description>${escapeXml(register)}</ram:Description>${space}`,
  );
}

/** The text of a PDF stream, inflated when it is compressed. */
function streamBytes(stream: PDFRawStream): Uint8Array {
  return decodePDFRawStream(stream).decode();
}

/** Replaces the content of the embedded e-invoice (factur-x.xml or xrechnung.xml) with `xml`. */
function replaceEmbeddedXml(pdf: PDFDocument, xml: string) {
  const names = pdf.catalog.lookup(PDFName.of('Names'), PDFDict);
  const list = names.lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray);
  const bytes = new TextEncoder().encode(xml);
  for (let index = 0; index < list.size(); index += 2) {
    const name = list.lookup(index, PDFString, PDFHexString).decodeText();
    if (name !== 'factur-x.xml' && name !== 'xrechnung.xml') continue;
    const files = list.lookup(index + 1, PDFDict).lookup(PDFName.of('EF'), PDFDict);
    const old = files.lookup(PDFName.of('F'), PDFStream) as PDFRawStream;
    const params = old.dict.lookup(PDFName.of('Params'), PDFDict).clone();
    params.set(PDFName.of('Size'), PDFNumber.of(bytes.length));
    const stream = pdf.context.flateStream(bytes, {
      Type: 'EmbeddedFile',
      Subtype: old.dict.get(PDFName.of('Subtype')) ?? PDFName.of('text/xml'),
      Params: params,
    });
    const ref = pdf.context.register(stream);
    files.set(PDFName.of('F'), ref);
    if (files.has(PDFName.of('UF'))) files.set(PDFName.of('UF'), ref);
    return;
  }
  throw new Error('the Factur-X PDF has no embedded e-invoice');
}

/** Sets the first (x-default) entry of an XMP language alternative, e.g. dc:title. */
const setXmpAlternative = (xmp: string, element: string, text: string) =>
  xmp.replace(
    new RegExp(`(<${element}>\\s*<rdf:Alt>\\s*<rdf:li[^>]*>)[\\s\\S]*?(</rdf:li>)`),
    (_match, open: string, close: string) => `${open}${escapeXml(text)}${close}`,
  );

/**
 * The document's title and subject in the invoice's language, the same in the document
 * information and the XMP metadata (PDF/A wants them to agree).
 */
function setTitle(pdf: PDFDocument, title: string, subject: string) {
  pdf.setTitle(title);
  pdf.setSubject(subject);
  const metadata = pdf.catalog.lookup(PDFName.of('Metadata'), PDFStream) as PDFRawStream;
  // The library writes the XMP as one byte per character (its BOM spelled as three Latin-1
  // characters); read it so and write it as the UTF-8 it declares.
  const text = Buffer.from(streamBytes(metadata)).toString('latin1').replace('\u00EF\u00BB\u00BF', '\uFEFF');
  const xmp = setXmpAlternative(setXmpAlternative(text, 'dc:title', title), 'dc:description', subject);
  const bytes = new TextEncoder().encode(xmp);
  // PDF/A: the metadata stream stays unfiltered.
  const stream = PDFRawStream.of(
    pdf.context.obj({ Type: 'Metadata', Subtype: 'XML', Length: bytes.length }),
    bytes,
  );
  pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(stream));
}

/** The finished Factur-X PDF: the standalone XML embedded, title and subject in its language. */
export async function completeFacturX(
  bytes: Uint8Array,
  xml: string,
  { title, subject }: { title: string; subject: string },
): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  replaceEmbeddedXml(pdf, xml);
  setTitle(pdf, title, subject);
  return pdf.save();
}
