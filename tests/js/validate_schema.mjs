// node validate_schema.mjs SCHEMA DATA: exit 0 when DATA validates against SCHEMA (draft 2020-12),
// else print Ajv's errors and exit 1.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const [schemaPath, dataPath] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
if (!validate(JSON.parse(readFileSync(dataPath, 'utf8')))) {
  console.error(JSON.stringify(validate.errors, null, 2));
  process.exit(1);
}
