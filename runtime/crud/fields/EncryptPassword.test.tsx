// The encrypt button sends the dialog's other values along with the password (the server binds the
// ciphertext to that record and target) and swaps the typed text for the answer.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createForm } from '@formily/core';
import { FormProvider, createSchemaField } from '@formily/react';
import { CrudServicesContext } from '../services';
import { fakeServices } from '../test-utils';
import { EncryptPassword } from './EncryptPassword';

const SchemaField = createSchemaField({ components: { EncryptPassword } });

describe('EncryptPassword', () => {
  it('sends the password with the dialog context, never its own value twice, and shows the ciphertext', async () => {
    const { services, calls } = fakeServices(() => 'enc:v2:CIPHER');
    const form = createForm({ initialValues: { id: 7, host: 'db.local', port: 5432, account: 'sa', note: '', secret: 'typed', nested: { x: 1 } } });
    render(
      <CrudServicesContext.Provider value={services}>
        <FormProvider form={form}>
          <SchemaField schema={{ type: 'object', properties: { secret: { type: 'string', 'x-component': 'EncryptPassword', 'x-component-props': { api: 'GET /x/encrypt', param: 'pwd' } } } }} />
        </FormProvider>
      </CrudServicesContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('encrypt-btn'));
    await waitFor(() => expect(form.values.secret).toBe('enc:v2:CIPHER'));
    expect(calls).toEqual([{ method: 'GET', path: '/x/encrypt', params: { id: 7, host: 'db.local', port: 5432, account: 'sa', pwd: 'typed' } }]);
  });
});
