package lockstep.nes.ppu;

import java.util.Arrays;

import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;

/**
 * The fast path of {@link SpriteEvaluation}: a stretch of dots at once, with the runs of dots
 * whose outcome is known ahead (the secondary OAM clear, sprites out of range, a sprite copied
 * whole, the steps after the copy is over) taken in one step each. Equal to the dot-by-dot
 * evaluation at every dot it ends on (RunDifferentialTest).
 */
final class FastSpriteEvaluation {
    private final SpriteEvaluation evaluation;

    /** The OAM bytes {@link #lineSprites} was built from (a cache: checked against OAM before use). */
    @NotState("cache of the sprites in range per line, checked against OAM")
    private final byte[] tableOam = new byte[256];
    /** The sprite height {@link #lineSprites} was built for; 0 before the first build. */
    @NotState("cache of the sprites in range per line, checked against OAM")
    private int tableHeight;
    /** Bit i of entry y: sprite i's Y byte puts line y in its range (0 <= y - Y < height). */
    @NotState("cache of the sprites in range per line, checked against OAM")
    private final long[] lineSprites = new long[256];

    FastSpriteEvaluation(SpriteEvaluation evaluation) {
        this.evaluation = evaluation;
    }

    /**
     * The sprites whose Y byte (at byte 4i) puts {@code line} in range for {@code height}: the
     * table, built again when OAM or the height differs from what it was built from.
     */
    private long spritesOnLine(byte[] oam, int height, int line) {
        if (height != tableHeight || !Arrays.equals(oam, 0, 256, tableOam, 0, 256)) {
            System.arraycopy(oam, 0, tableOam, 0, 256);
            tableHeight = height;
            Arrays.fill(lineSprites, 0);
            for (int i = 0; i < 64; i++) {
                final int y = oam[i << 2] & 0xFF;
                final int last = Math.min(y + height, 256);
                for (int row = y; row < last; row++) {
                    lineSprites[row] |= 1L << i;
                }
            }
        }
        return lineSprites[line];
    }
    /**
     * Dots {@code from..to} (within 1..256) of visible line {@code line}: the same as
     * {@link SpriteEvaluation#dot} on each, with the evaluation state in locals.
     */
    void run(int from, int to, int line, int ctrl) {
        final SpriteEvaluation e = evaluation;
        // Secondary OAM is read from its array and written through its Memory (a few dozen
        // writes a line with the fast paths below); a long stretch of the clear is one fill and
        // one rehash.
        final byte[] sec = e.secondaryOamBytes;
        final Memory secondary = e.secondaryOam;
        int d = from;
        if (d <= 64) {
            final int end = Math.min(to, 64);
            // Even dot e writes $FF to byte e/2 - 1: bytes (first even)/2 - 1 .. end/2 - 1.
            final int firstByte = ((d + 1) >> 1) - 1;
            final int endByte = end >> 1;
            if (firstByte == 0 && endByte == sec.length) {
                secondary.fill(0xFF); // the whole clear: its hash without a pass over the bytes
            } else if (endByte - firstByte > 8) {
                java.util.Arrays.fill(sec, firstByte, endByte, (byte) 0xFF);
                secondary.rehash();
            } else {
                for (int i = firstByte; i < endByte; i++) {
                    secondary.write(i, 0xFF);
                }
            }
            d = end + 1;
            e.oamCopyBuffer = 0xFF;
            if (d > to) {
                return;
            }
        }
        final byte[] primary = e.oamBytes;
        final int height = (ctrl & 0x20) != 0 ? 16 : 8;
        int buffer = e.oamCopyBuffer;
        int secAddr = e.secondaryOamAddr;
        int h = e.spriteAddrH;
        int l = e.spriteAddrL;
        boolean inRange = e.spriteInRange;
        boolean done = e.oamCopyDone;
        int bug = e.overflowBugCounter;
        boolean zeroAdded = e.sprite0Added;
        boolean overflow = e.spriteOverflow;
        int addr = e.oamAddr;
        boolean misaligned = false;
        // The sprites in range on this line, looked up once a stretch (OAM does not change within one).
        boolean tableChecked = false;
        long onLine = 0;
        for (; d <= to; d++) {
            // Aligned, the byte index follows the slot's byte index while copying.
            if (d == 65 ? (addr & 3) != 0 : !done && secAddr < 0x20 && ((l ^ secAddr) & 3) != 0) {
                // A misaligned OAMADDR while sprites are still being copied: the dot model
                // takes the rest of the stretch (it realigns by rules this path does not copy).
                misaligned = true;
                break;
            }
            if (d == 65) {
                zeroAdded = false;
                inRange = false;
                secAddr = 0;
                bug = 0;
                done = false;
                h = (addr >> 2) & 0x3F;
                l = addr & 3;
            }
            if (done && (d & 1) == 0 && to - d >= 3) {
                // Copying is over: each even dot steps the sprite index and reads secondary OAM
                // at the current slot, each odd dot reads OAM at the stepped address. Only
                // the state after the last dot is seen: the index after all the steps, and the
                // buffer from the last dot.
                h = (h + ((to - d) >> 1) + 1) & 0x3F;
                addr = (l & 3) | (h << 2);
                if ((to & 1) != 0) {
                    buffer = primary[addr] & 0xFF;
                } else {
                    buffer = sec[secAddr & 0x1F] & 0xFF;
                }
                if (to == 256) {
                    e.sprite0InLine = zeroAdded;
                    e.spriteCount = secAddr >> 2;
                }
                d = to + 1;
                break;
            }
            if ((d & 1) != 0 && to - d >= 7 && !inRange && !done && secAddr < 0x20 && (secAddr & 3) == 0) {
                final int y = primary[addr] & 0xFF;
                final int r = line - y;
                if (r >= 0 && r < height) {
                    // A sprite in range with its 8 dots in this batch: Y (read at the present
                    // address) and the three bytes after it in the sprite are copied to the free
                    // slot; the buffer keeps the last byte read.
                    final int base = h << 2;
                    secondary.write(secAddr, y);
                    secondary.write(secAddr + 1, primary[base | ((l + 1) & 3)]);
                    secondary.write(secAddr + 2, primary[base | ((l + 2) & 3)]);
                    buffer = primary[base | ((l + 3) & 3)] & 0xFF;
                    secondary.write(secAddr + 3, buffer);
                    if (d == 65) {
                        // The line's first sprite evaluated is the one that can make a sprite 0 hit.
                        zeroAdded = true;
                    }
                    secAddr += 4;
                    l = 0;
                    h = (h + 1) & 0x3F;
                    if (h == 0) {
                        done = true;
                    }
                    addr = h << 2;
                    d += 7; // the sprite's last dot
                    if (d == 256) {
                        e.sprite0InLine = zeroAdded;
                        e.spriteCount = secAddr >> 2;
                    }
                    continue;
                }
            }
            if ((d & 1) != 0 && d < to && !inRange && !done && secAddr >= 0x20) {
                // Secondary OAM full, looking for an overflow: sprites out of range step the
                // sprite and (the hardware bug) the byte index together, two dots each; each
                // even dot reads secondary OAM's byte 0 into the buffer.
                boolean skipped = false;
                while (d < to) {
                    final int r = line - (primary[addr] & 0xFF);
                    if (r >= 0 && r < height) {
                        break;
                    }
                    h = (h + 1) & 0x3F;
                    l = (l + 1) & 3;
                    addr = l | (h << 2);
                    d += 2;
                    skipped = true;
                    if (h == 0) {
                        done = true;
                        break;
                    }
                }
                if (skipped) {
                    buffer = sec[secAddr & 0x1F] & 0xFF;
                    if (d == 257) {
                        e.sprite0InLine = zeroAdded;
                        e.spriteCount = secAddr >> 2;
                    }
                    d--; // d is the next dot to run
                    continue;
                }
            }
            if ((d & 1) != 0 && d < to && !inRange && !done && secAddr < 0x20) {
                // The common pairs of dots: an odd dot reads a sprite's Y, the even one writes it
                // to the free slot and, the sprite being out of range, steps to the next sprite.
                // Only the last Y written stays in the slot (and in the copy buffer).
                int y = -1;
                final int low = l & 3;
                if (low == 0) {
                    // Aligned, each pair reads a sprite's Y byte: the sprites up to the next one in
                    // range (or the last) are stepped over at once, as many as the stretch holds.
                    if (!tableChecked) {
                        onLine = spritesOnLine(primary, height, line);
                        tableChecked = true;
                    }
                    final long ahead = onLine & (-1L << h);
                    final int next = ahead == 0 ? 64 : Long.numberOfTrailingZeros(ahead);
                    final int k = Math.min(next - h, (to - d + 1) >> 1);
                    if (k > 0) {
                        y = primary[(h + k - 1) << 2] & 0xFF;
                        h = (h + k) & 0x3F;
                        addr = h << 2;
                        d += 2 * k;
                        done = h == 0;
                    }
                }
                while (low != 0 && d < to) {
                    final int next = primary[addr] & 0xFF;
                    final int r = line - next;
                    if (r >= 0 && r < height) {
                        break;
                    }
                    y = next;
                    h = (h + 1) & 0x3F;
                    addr = low | (h << 2);
                    d += 2;
                    if (h == 0) {
                        done = true;
                        break;
                    }
                }
                if (y >= 0) {
                    buffer = y;
                    secondary.write(secAddr, y);
                    if (d == 257) {
                        e.sprite0InLine = zeroAdded;
                        e.spriteCount = secAddr >> 2;
                    }
                    d--; // d is the next dot to run
                    continue;
                }
            }
            if ((d & 1) != 0) {
                buffer = primary[addr] & 0xFF;
            } else {
                if (done) {
                    h = (h + 1) & 0x3F;
                    buffer = sec[secAddr & 0x1F] & 0xFF;
                } else {
                    final int r = line - buffer;
                    if (!inRange && r >= 0 && r < height) {
                        inRange = true;
                    }
                    if (secAddr < 0x20) {
                        secondary.write(secAddr, buffer);
                        if (inRange) {
                            l++;
                            secAddr++;
                            if (d == 66) {
                                zeroAdded = true;
                            }
                            if ((secAddr & 3) == 0) {
                                inRange = false;
                                l = 0;
                                h = (h + 1) & 0x3F;
                                if (h == 0) {
                                    done = true;
                                }
                            }
                        } else {
                            h = (h + 1) & 0x3F;
                            if (h == 0) {
                                done = true;
                            }
                        }
                    } else {
                        buffer = sec[secAddr & 0x1F] & 0xFF;
                        if (inRange) {
                            overflow = true;
                            l++;
                            if (l == 4) {
                                h = (h + 1) & 0x3F;
                                l = 0;
                            }
                            if (bug == 0) {
                                bug = 3;
                            } else {
                                bug--;
                                if (bug == 0) {
                                    done = true;
                                    l = 0;
                                }
                            }
                        } else {
                            h = (h + 1) & 0x3F;
                            l = (l + 1) & 3;
                            if (h == 0) {
                                done = true;
                            }
                        }
                    }
                }
                addr = (l & 3) | (h << 2);
            }
            if (d == 256) {
                e.sprite0InLine = zeroAdded;
                e.spriteCount = secAddr >> 2;
            }
        }
        e.oamCopyBuffer = buffer;
        e.secondaryOamAddr = secAddr;
        e.spriteAddrH = h;
        e.spriteAddrL = l;
        e.spriteInRange = inRange;
        e.oamCopyDone = done;
        e.overflowBugCounter = bug;
        e.sprite0Added = zeroAdded;
        e.spriteOverflow = overflow;
        e.oamAddr = addr;
        if (misaligned) {
            for (; d <= to; d++) {
                e.dot(d, line, ctrl);
            }
        }
    }
}
