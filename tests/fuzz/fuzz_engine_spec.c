 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
S * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
P * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
D * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
X * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
- * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
- * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
: * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
A * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
- * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
2 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
T * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
b * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
N * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
A * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
b * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
b * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
b * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
# * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
# * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
b * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
# * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
# * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
# * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
{ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
! * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
b * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
} * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
V * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
M * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
F * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
T * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
O * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
8 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
V * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
M * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
F * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
T * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
O * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
8 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
{ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
T * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
N * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
L * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
+ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
1 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
! * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
[ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
] * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
[ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
2 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
] * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
{ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
[ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
] * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
! * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
! * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
} * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
? * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
: * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
: * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
: * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
" * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
K * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
V * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
S * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
H * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
M * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
N * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
G * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
N * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
D * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
M * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
A * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
X * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
+ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
+ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
[ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
] * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
[ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
] * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
7 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
1 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
[ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
] * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
! * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
\ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
' * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
m * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
w * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
g * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
, * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
> * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
& * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
+ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
. * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
_ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
< * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
+ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
z * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
Q * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
U * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
I * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
R * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
E * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
= * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
s * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
h * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
c * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
k * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
v * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
p * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
i * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
o * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
l * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
a * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
d * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
y * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
* * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
/ * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
f * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
( * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
x * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
) * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
e * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
t * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
u * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
r * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
n * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
  * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
0 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
; * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
} * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.

 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
