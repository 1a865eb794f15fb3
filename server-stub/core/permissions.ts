// Permission strings are read one way in the browser and on the server: common/permissions.ts.
export { ALL_PERMISSIONS, hasPermission } from '../../common/permissions.js';
