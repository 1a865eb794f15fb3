import { customizeValidator } from '@rjsf/validator-ajv8';

// One ajv instance for every panel: compiled schemas are cached by content.
export const panelValidator = customizeValidator();
