// Copy of the staff members page's "waiting invitations" section: buyers who paid
// without an account and whose "Your files are ready" e-mail has not gone out, or went out and
// expired unused.

export const waitingInvitationsCopy = {
  title: 'Buyers waiting for their invitation',
  intro:
    'These buyers have paid but have not received a working "Your files are ready" e-mail yet. Waiting invitations go out by themselves within a minute, or once the mail provider or the e-mail budget allows again; "Send again" puts one back in the queue.',
  loading: 'Loading waiting invitations...',
  stillLoading: 'Still loading waiting invitations...',
  loadFailed: 'We couldn’t load the waiting invitations.',
  none: 'No buyer is waiting for an invitation.',
  staleNote: 'This list may be out of date: the latest read failed.',
  resend: 'Send again',
  resending: 'Queuing...',
  resendLabel: (email: string) => `Send the invitation to ${email} again`,
  queuedTitle: 'Invitation queued',
  queuedDescription: (email: string) =>
    `The invitation to ${email} goes out within a minute, or as soon as the mail provider or the e-mail budget allows.`,
  resendFailed: 'Could not queue the invitation',
  nothingToResend: 'This invitation has already gone out or been accepted.',
  since: (when: string) => `Paid ${when}`,
  attempts: (n: number) => (n === 1 ? '1 attempt' : `${n} attempts`),
  state: {
    budget: 'Waiting: this hour’s e-mail budget is used up',
    pending: 'Waiting to be sent',
    sending: 'Sending now',
    failed: 'Failed',
    expired: 'Link expired unused',
  },
} as const;
