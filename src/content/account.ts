/**
 * The words of "my data" and "leaving": the account menu's export and deletion,
 * and the staff erasure on a member's page. What is kept and why matches /privacy
 * (src/content/privacy.ts) and what supabase/functions/account does.
 */
export const account = {
  menu: { download: 'Download my data', delete: 'Delete my account', privacy: 'Your privacy' },
  download: {
    busy: 'Preparing your data...',
    done: 'Your data is downloaded',
    doneDescription: 'One file with your profile, tier, purchases and sign-in times.',
    failed: "Couldn't download your data",
  },
  remove: {
    title: 'Delete your account',
    description: 'This cannot be undone.',
    goes: 'Your sign-in, profile, picture, tier and any access our team gave you are erased at once, and you are signed out everywhere.',
    kept: 'Your purchase records stay in our books, as the law requires for sales, without any link to you. A new account with the same e-mail does not get them back by itself; write to us and we will restore your access.',
    password: 'Your password',
    passwordHint: 'To be sure it is you.',
    passwordMissing: 'Enter your password to confirm.',
    submit: 'Delete my account',
    busy: 'Deleting...',
    cancel: 'Keep my account',
    done: 'Your account is deleted',
    doneDescription:
      'Everything about you is erased except your purchase records, which the law asks us to keep, without your name on them. Thank you for writing with us.',
  },
  erase: {
    open: 'Erase this member',
    title: (email: string) => `Erase ${email}`,
    description:
      'For a member who asked to be erased. Their sign-in, profile, picture, tier and grants go at once; their purchase records stay, detached from any account.',
    email: 'Type their e-mail address to confirm',
    emailMismatch: "That is not this member's e-mail address.",
    reasonHint: 'Required. Kept in the erasure log with your name and the time (never what was erased).',
    submit: 'Erase member',
    busy: 'Erasing...',
    cancel: 'Cancel',
    staffRefused: 'Staff accounts cannot be erased here.',
    done: (email: string) => `${email} is erased`,
  },
} as const;
