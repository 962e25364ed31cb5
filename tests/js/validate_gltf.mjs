// node validate_gltf.mjs FILE...: runs the Khronos glTF Validator on each glTF/GLB file and prints
// one JSON array of its reports (the validator's own report objects, with "uri" naming the file)
// on standard output. Exit 0 when no report has an error, 1 when any has, 2 on a bad command line
// or a file that cannot be read. External buffers resolve beside each file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate_gltf.mjs FILE...');
  process.exit(2);
}

const reports = [];
let errors = 0;
for (const file of files) {
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri: file,
    maxIssues: 100,
    externalResourceFunction: (uri) =>
      readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  errors += report.issues.numErrors;
  reports.push(report);
}
console.log(JSON.stringify(reports, null, 2));
process.exit(errors > 0 ? 1 : 0);
