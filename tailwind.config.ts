import type { Config } from 'tailwindcss';

// Brand palette for "Yes, You Can!": deep navy for trust, warm gold for the calls to action.
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        navy: {
          50: '#f2f5fb',
          100: '#e1e8f5',
          600: '#2c4a86',
          700: '#223a6b',
          800: '#1a2d53',
          900: '#111e38',
        },
        gold: {
          300: '#f5d77a',
          400: '#f0c64a',
          500: '#e0ad22',
          600: '#b98a12',
        },
        cream: '#fdf9f0',
      },
      fontFamily: {
        serif: ['Georgia', 'Cambria', '"Times New Roman"', 'serif'],
        sans: ['system-ui', '-apple-system', '"Segoe UI"', 'Roboto', 'sans-serif'],
      },
    },
  },
} satisfies Config;
