import consoleTexts from './en-US/console.json';
import errors from './en-US/errors.json';
import exportTexts from './en-US/export.json';
import sdk from './en-US/sdk.json';
import success from './en-US/success.json';
import validation from './en-US/validation.json';

/** The shared catalogues in en-US, one module per language so that a console loads only its own. */
export const catalogs = { validation, errors, success, export: exportTexts, console: consoleTexts, sdk };
