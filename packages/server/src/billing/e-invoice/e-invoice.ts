import { InvoiceService, type Invoice } from '@e-invoice-eu/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@tankportal/shared/constants';
import { completeFacturX, withSellerLegalInformation } from './factur-x.ts';
import type { InvoiceDocument } from './invoice-document.ts';

/**
 * The EN 16931 invoice of a document, made by @e-invoice-eu/core (decision 043): its input is the
 * semantic model in UBL's names, which the library checks against its EN 16931 JSON schema
 * (cardinalities, code lists) and writes as CII, embedded in a PDF/A-3 for Factur-X/ZUGFeRD.
 * A buyer with a Leitweg-ID (a German public buyer) gets the XRechnung guideline.
 */

/** A UBL amount in euros, in the library's flat `name@attribute` spelling. */
const amount = (name: string, value: string) => ({ [name]: value, [`${name}@currencyID`]: 'EUR' });

/** Standard rated unless the operator charges no VAT (then zero rated). */
const taxCategory = (vatRate: string) => ({
  'cbc:ID': Number(vatRate) > 0 ? 'S' : 'Z',
  'cbc:Percent': vatRate,
  'cac:TaxScheme': { 'cbc:ID': 'VAT' },
});

export const E_INVOICE_FORMATS = ['pdf', 'xml'] as const;
export type EInvoiceFormat = (typeof E_INVOICE_FORMATS)[number];

/** The library's format for an export: Factur-X (PDF) or plain CII (XML), XRechnung for public buyers. */
export function libraryFormat(document: InvoiceDocument, format: EInvoiceFormat): string {
  const xrechnung = document.buyer.leitwegId !== null;
  if (format === 'pdf') return xrechnung ? 'Factur-X-XRechnung' : 'Factur-X-EN16931';
  return xrechnung ? 'XRECHNUNG-CII' : 'CII';
}

/** The document in the library's input model (EN 16931 business terms named in the comments). */
export function toEInvoice(document: InvoiceDocument): Invoice {
  const { seller, buyer } = document;
  const paymentNote = `Zahlbar ohne Abzug bis ${document.dueDate.split('-').reverse().join('.')}.`;
  const invoice = {
    'ubl:Invoice': {
      'cbc:ID': document.number, // BT-1
      'cbc:IssueDate': document.issueDate, // BT-2
      'cbc:DueDate': document.dueDate, // BT-9
      'cbc:InvoiceTypeCode': '380', // commercial invoice
      // BT-22: the order number also as a note, for readers that show notes rather than BT-13.
      ...(buyer.orderNumber && { 'cbc:Note': [`Bestellnummer ${buyer.orderNumber}`] }),
      'cbc:DocumentCurrencyCode': 'EUR',
      // BT-10: the Leitweg-ID where the buyer has one; XRechnung requires some reference.
      'cbc:BuyerReference': buyer.leitwegId ?? buyer.orderNumber ?? buyer.debtorIdent,
      'cac:InvoicePeriod': { 'cbc:StartDate': document.period.begin, 'cbc:EndDate': document.period.end },
      ...(buyer.orderNumber && { 'cac:OrderReference': { 'cbc:ID': buyer.orderNumber } }), // BT-13
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cbc:EndpointID': seller.email, // BT-34
          'cbc:EndpointID@schemeID': 'EM',
          'cac:PartyName': { 'cbc:Name': seller.name },
          'cac:PostalAddress': {
            'cbc:StreetName': seller.street,
            'cbc:CityName': seller.city,
            'cbc:PostalZone': seller.postalCode,
            'cac:Country': { 'cbc:IdentificationCode': seller.countryCode },
          },
          'cac:PartyTaxScheme': [
            ...(seller.vatId
              ? [{ 'cbc:CompanyID': seller.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }]
              : []), // BT-31
            ...(seller.taxNumber
              ? [{ 'cbc:CompanyID': seller.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }]
              : []), // BT-32
          ],
          'cac:PartyLegalEntity': {
            'cbc:RegistrationName': seller.name,
            // BT-33; the library's CII mapping reads another name, factur-x.ts writes it into the XML.
            ...(seller.register && { 'cbc:CompanyLegalForm': seller.register }),
          },
          'cac:Contact': {
            'cbc:Name': seller.contactName,
            'cbc:Telephone': seller.phone,
            'cbc:ElectronicMail': seller.email,
          },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          // BT-49: a public buyer is reached by its Leitweg-ID (scheme 0204).
          ...(buyer.leitwegId && { 'cbc:EndpointID': buyer.leitwegId, 'cbc:EndpointID@schemeID': '0204' }),
          'cac:PartyIdentification': { 'cbc:ID': buyer.debtorIdent }, // BT-46: the customer number
          'cac:PostalAddress': {
            ...(buyer.streetLines[0] && { 'cbc:StreetName': buyer.streetLines[0] }),
            ...(buyer.streetLines[1] && { 'cbc:AdditionalStreetName': buyer.streetLines[1] }),
            ...(buyer.city && { 'cbc:CityName': buyer.city }),
            ...(buyer.postalCode && { 'cbc:PostalZone': buyer.postalCode }),
            'cac:Country': { 'cbc:IdentificationCode': buyer.countryCode },
          },
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': buyer.name }, // BT-44
        },
      },
      // BT-70: the service goes to the buyer (CII requires the delivery block even so).
      'cac:Delivery': { 'cac:DeliveryParty': { 'cac:PartyName': { 'cbc:Name': buyer.name } } },
      'cac:PaymentMeans': [
        {
          'cbc:PaymentMeansCode': '58', // SEPA credit transfer
          'cbc:PaymentID': document.number, // BT-83: the remittance information
          'cac:PayeeFinancialAccount': {
            'cbc:ID': seller.iban,
            'cbc:Name': seller.name,
            ...(seller.bic && { 'cac:FinancialInstitutionBranch': { 'cbc:ID': seller.bic } }),
          },
        },
      ],
      'cac:PaymentTerms': { 'cbc:Note': paymentNote },
      'cac:TaxTotal': [
        {
          ...amount('cbc:TaxAmount', document.totalVat),
          'cac:TaxSubtotal': [
            {
              ...amount('cbc:TaxableAmount', document.totalNet),
              ...amount('cbc:TaxAmount', document.totalVat),
              'cac:TaxCategory': taxCategory(document.vatRate),
            },
          ],
        },
      ],
      'cac:LegalMonetaryTotal': {
        ...amount('cbc:LineExtensionAmount', document.totalNet),
        ...amount('cbc:TaxExclusiveAmount', document.totalNet),
        ...amount('cbc:TaxInclusiveAmount', document.totalGross),
        ...amount('cbc:PayableAmount', document.totalGross),
      },
      'cac:InvoiceLine': document.items.map((item) => ({
        'cbc:ID': String(item.sequence),
        'cbc:InvoicedQuantity': String(item.quantity),
        'cbc:InvoicedQuantity@unitCode': 'C62', // one (unit)
        ...amount('cbc:LineExtensionAmount', item.totalPrice),
        'cac:InvoicePeriod': { 'cbc:StartDate': item.periodBegin, 'cbc:EndDate': item.periodEnd },
        'cac:Item': {
          ...(itemDescription(item) && { 'cbc:Description': itemDescription(item) }),
          'cbc:Name': item.name,
          'cac:ClassifiedTaxCategory': taxCategory(document.vatRate),
        },
        'cac:Price': amount('cbc:PriceAmount', item.price),
      })),
    },
  };
  // The library checks the model against its JSON schema when it generates (tests run it on every
  // shape made here); its generated types (code unions, tuples) add nothing to that.
  return invoice as unknown as Invoice;
}

/** The item's extra text and its device, which tell a debtor's tanks apart. */
export function itemDescription(item: InvoiceDocument['items'][number], deviceWord = 'Gerät'): string {
  const device =
    item.device &&
    [`${deviceWord} ${item.device.id}`, item.device.name, item.device.address].filter(Boolean).join(' · ');
  return [item.additionalText, device].filter(Boolean).join('\n');
}

/** The library's messages go to the server's log. */
const libraryLogger = (log: FastifyBaseLogger) => ({
  log: (message: string) => log.debug({ eInvoice: message }),
  warn: (message: string) => log.warn({ eInvoice: message }),
  error: (message: string) => log.error({ eInvoice: message }),
});

/** The PDF's title and subject in the document's language. */
export function documentTitle(document: InvoiceDocument, locale: Locale) {
  const date = locale === 'de' ? document.issueDate.split('-').reverse().join('.') : document.issueDate;
  return locale === 'de'
    ? {
        title: `Rechnung ${document.number}`,
        subject: `Rechnung ${document.number} vom ${date}, ausgestellt von ${document.seller.name}`,
      }
    : {
        title: `Invoice ${document.number}`,
        subject: `Invoice ${document.number} of ${date}, issued by ${document.seller.name}`,
      };
}

/**
 * The e-invoice of a document: `pdf` is the human-readable PDF with the CII XML embedded
 * (Factur-X/ZUGFeRD, PDF/A-3), `xml` the CII alone — the embedded XML is the standalone one
 * (factur-x.ts says what the library leaves out). Throws when the library's validation refuses
 * the data (a bug here, not a user's mistake).
 */
export async function generateEInvoice(
  document: InvoiceDocument,
  format: EInvoiceFormat,
  humanReadable: Uint8Array | null,
  log: FastifyBaseLogger,
  locale: Locale = 'de',
): Promise<Uint8Array | string> {
  const service = new InvoiceService(libraryLogger(log));
  const options = { lang: locale, noWarnings: true };
  const cii = await service.generate(toEInvoice(document), {
    ...options,
    format: libraryFormat(document, 'xml'),
  });
  const xml = withSellerLegalInformation(String(cii), document.seller.register);
  if (format === 'xml') return xml;
  const pdf = await service.generate(toEInvoice(document), {
    ...options,
    format: libraryFormat(document, 'pdf'),
    ...(humanReadable && {
      pdf: {
        buffer: humanReadable,
        filename: `rechnung-${document.number}.pdf`,
        mimetype: 'application/pdf',
      },
    }),
  });
  return completeFacturX(pdf as Uint8Array, xml, documentTitle(document, locale));
}
