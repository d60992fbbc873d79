import consoleTexts from './zh-CN/console.json';
import errors from './zh-CN/errors.json';
import exportTexts from './zh-CN/export.json';
import sdk from './zh-CN/sdk.json';
import success from './zh-CN/success.json';
import validation from './zh-CN/validation.json';

/** The shared catalogues in zh-CN, one module per language so that a console loads only its own. */
export const catalogs = { validation, errors, success, export: exportTexts, console: consoleTexts, sdk };
