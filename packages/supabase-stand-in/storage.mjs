// @ts-check
// The storage-api (/storage/v1) subset the app uses, one module of storage/ per route group of
// hosted Storage (supabase/storage src/http/routes/object/*, bucket/*); routes/storage.mjs wires
// them. As hosted Storage does, every request's transaction sets storage.operation to the
// route's operation; reads and deletes run as the caller, and a write is first tested as the
// caller against the row hosted Storage tests, rolled back, and then written for real by the
// storage admin (storage/context.mjs). This module keeps the names server.mjs imports.
export { createStorageContext as createStorageService, OPERATIONS } from './storage/context.mjs';
export { storageError } from './storage/errors.mjs';
export { mimeAllowed, objectFile, validateBucket, validateKey } from './storage/names.mjs';
export { GLOBAL_FILE_SIZE_LIMIT } from './storage/objects-write.mjs';
export { UPLOAD_SIGNED_URL_EXPIRES_IN } from './storage/upload-signed.mjs';
