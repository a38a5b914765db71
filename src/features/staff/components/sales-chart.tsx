import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { tierLabel, tiers } from '@/content/tiers';
import type { ChartRow } from './dashboard-view';

/** Each tier's colour: the brand's navy and gold, told apart by lightness too. */
const colours = { ebook: '#94a3b8', foundation: '#d4a017', accelerated: '#3b5b92', complete: '#13294b' } as const;
/** The visitors' line: a red apart from every tier's colour. */
const visitorsColour = '#b91c1c';

/**
 * Sales per day over 90 days, stacked by tier, and once the visits have loaded, visitors per day
 * as a line against its own scale on the right (visitors outnumber sales): an SVG chart
 * (recharts), loaded only here. The same figures are in the table under it for screen readers
 * and keyboards, so the picture is hidden from them and takes no focus (no accessibility layer).
 */
export default function SalesChart({ rows }: { rows: ChartRow[] }) {
  const hasVisitors = rows.some((row) => row.visitors !== undefined);
  return (
    <div className="h-72 w-full" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} minTickGap={24} fontSize={12} />
          <YAxis yAxisId="sales" allowDecimals={false} width={32} fontSize={12} />
          {hasVisitors && (
            <YAxis yAxisId="visitors" orientation="right" allowDecimals={false} width={40} fontSize={12} />
          )}
          <Tooltip />
          <Legend />
          {tiers.map((tier) => (
            <Bar
              key={tier}
              yAxisId="sales"
              dataKey={tier}
              name={tierLabel(tier)}
              stackId="sales"
              fill={colours[tier]}
              isAnimationActive={false}
            />
          ))}
          {hasVisitors && (
            <Line
              yAxisId="visitors"
              type="monotone"
              dataKey="visitors"
              name="Visitors (right scale)"
              stroke={visitorsColour}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
