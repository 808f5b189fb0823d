export { readCatalog, readPwcPapers, type ReadCatalogOptions } from './read-catalog.js';
export { createPaperAcceptor, IdRegistry, type PaperAcceptor, type PaperAcceptorOptions } from './paper-acceptor.js';
export { pwcRecordToPaper, idFromPaperUrl, PWC_FIELDS, type PwcRecordValidation } from './pwc-record.js';
export { detectRecordFormat, RECORD_FORMATS, type RecordFormat, type RecordFormatOption } from './record-format.js';
