import { describe, expect, it } from 'vitest';
import { actionPerms } from './actions';
import type { PageDeclaration } from './types';

describe('which permission guards an action', () => {
  const page = { id: 'p', title: 'P', api: { search: 'POST /p/search' }, perms: { list: 'p:list', add: 'p:add', edit: 'p:edit', remove: 'p:remove' }, columns: [] } as unknown as PageDeclaration;
  it('copy is a new record: the add permission, as the server checks it', () => {
    expect(actionPerms({ action: 'copy' }, page)).toEqual(['p:add']);
    expect(actionPerms({ action: 'add' }, page)).toEqual(['p:add']);
    expect(actionPerms({ action: 'edit' }, page)).toEqual(['p:edit']);
    expect(actionPerms({ action: 'delete' }, page)).toEqual(['p:remove']);
    expect(actionPerms({ action: 'copy', perms: ['own'] }, page)).toEqual(['own']);
  });
});
