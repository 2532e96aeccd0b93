// Stored responses: what the Responses API keeps so a conversation continues with previous_response_id. A member
// deletes every one it created in the chosen organization (DELETE /responses), after confirming; others' stay. A
// management key opens no stored response, so the section is hidden for it.
function loadStoredResponses() {
  byId('stored-responses').hidden = (credentialStore.get() || '').startsWith('mgm-v1-');
  showPurgeConfirmation(false);
}

function showPurgeConfirmation(shown) {
  byId('purge-responses').hidden = shown;
  byId('purge-responses-confirm').hidden = !shown;
}

async function purgeResponses() {
  await guarded(async () => {
    const { deleted } = await api('DELETE', '/responses');
    showPurgeConfirmation(false);
    const org = organizationState.current;
    const where = org ? ` in ${org.name}` : '';
    announce(`Deleted ${integer(deleted)} stored ${deleted === 1 ? 'response' : 'responses'}${where}.`);
    byId('purge-responses').focus();
  });
}

function startStoredResponses() {
  byId('purge-responses').addEventListener('click', () => {
    showPurgeConfirmation(true);
    byId('purge-responses-cancel').focus();
  });
  byId('purge-responses-cancel').addEventListener('click', () => {
    showPurgeConfirmation(false);
    byId('purge-responses').focus();
  });
  byId('purge-responses-yes').addEventListener('click', purgeResponses);
}
