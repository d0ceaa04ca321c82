/**
 * Headless Chromium for page tests and the benchmark (playwright-core): the system's Chromium where
 * one is installed, else the one @sparticuz/chromium ships in npm (unpacked into the temporary folder on first use).
 */
import fs from 'fs-extra';
import { chromium, type BrowserContext } from 'playwright-core';
import npmChromium from '@sparticuz/chromium';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const chromiumPath = async () => (fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : npmChromium.executablePath());

/** A fresh browser profile in `profileDir` at desktop size. */
export async function launchBrowser(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: await chromiumPath(),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
}
