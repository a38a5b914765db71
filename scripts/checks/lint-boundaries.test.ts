import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries in eslint.config.js, proven on probe files that are linted from
 * memory (nothing is written to src/). The type-aware rules need a file on disk, so the
 * probes are linted without them; the boundary rule only needs the resolver.
 */
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it('refuses a feature importing the app', async () => {
    const errors = await boundaryErrors(
      'src/features/landing/components/probe.tsx',
      "import { AccountCorner } from '@/app/account-corner';\nexport const probe = AccountCorner;\n",
    );
    expect(errors).toEqual([expect.stringContaining('features do not import them')]);
  });

  it("refuses a feature reaching into another feature's internals", async () => {
    const errors = await boundaryErrors(
      'src/features/landing/components/probe.tsx',
      "import { PurchaseLink } from '@/features/purchase/components/purchase-link';\nexport const probe = PurchaseLink;\n",
    );
    expect(errors).toEqual([expect.stringContaining('public entry')]);
  });

  it("refuses a relative path into another feature's internals too", async () => {
    const errors = await boundaryErrors(
      'src/features/landing/components/probe.tsx',
      "import { signIn } from '../../auth/api/sign-in';\nexport const probe = signIn;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it("allows another feature's public entry, and a feature's own internals", async () => {
    expect(
      await boundaryErrors(
        'src/features/landing/components/probe.tsx',
        "import { PurchaseLink } from '@/features/purchase';\nimport { landing } from '@/content/landing';\nimport { Hero } from './hero';\nexport const probe = [PurchaseLink, landing, Hero];\n",
      ),
    ).toEqual([]);
  });

  it('refuses a feature importing the boot code, any module of it, with no exception', async () => {
    for (const module of ['main', 'hold-until-app', 'answer-before-app', 'start-on-intent']) {
      const errors = await boundaryErrors(
        'src/features/auth/components/probe.tsx',
        `import * as boot from '@/boot/${module}';\nexport const probe = boot;\n`,
      );
      expect(errors, module).toEqual([expect.stringContaining('Features do not import the boot code')]);
    }
    const relative = await boundaryErrors(
      'src/features/tiers/api/probe.ts',
      "import { holdInteractions } from '../../../boot/hold-until-app';\nexport const probe = holdInteractions;\n",
    );
    expect(relative).toEqual([expect.stringContaining('Features do not import the boot code')]);
  });

  it('refuses boot code before the app importing a feature, the app or the documents; main.ts starts the app', async () => {
    expect(
      await boundaryErrors(
        'src/boot/probe.ts',
        "import { signOut } from '@/features/auth';\nimport { routes } from '@/app/router';\nexport const probe = [signOut, routes];\n",
      ),
    ).toEqual([
      expect.stringContaining('boot code before the app'),
      expect.stringContaining('boot code before the app'),
    ]);
    expect(
      await boundaryErrors('src/boot/main.ts', "import { start } from '@/app/start';\nexport const probe = start;\n"),
    ).toEqual([]);
  });

  it('refuses a document loading the boot code, and a feature importing a document', async () => {
    expect(
      await boundaryErrors(
        'src/document/probe.ts',
        "import { holdInteractions } from '@/boot/hold-until-app';\nexport const probe = holdInteractions;\n",
      ),
    ).toEqual([expect.stringContaining('documents do not load the boot code')]);
    expect(
      await boundaryErrors(
        'src/features/landing/components/probe.tsx',
        "import { mountMemberIsland } from '@/document/member-island';\nexport const probe = mountMemberIsland;\n",
      ),
    ).toEqual([expect.stringContaining('features do not import them')]);
  });

  it('refuses shared code importing a feature, and the app importing the local stand-in', async () => {
    expect(
      await boundaryErrors(
        'src/lib/probe.ts',
        "import { signOut } from '@/features/auth';\nexport const probe = signOut;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/app/probe.ts',
        "import { ANON_KEY } from '../../packages/supabase-stand-in/keys.mjs';\nexport const probe = ANON_KEY;\n",
      ),
    ).toHaveLength(1);
  });
});
