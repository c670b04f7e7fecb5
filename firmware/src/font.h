/* font.h - the 7-segment font (MAX7219 no-decode bit order: DP A B C D E F G
 * from bit 7 to bit 0). Must stay equal to hardware/segment/font.go. */
#ifndef FONT_H
#define FONT_H

#include <stdint.h>

/* font_segments returns the segments of an ASCII character (bit 7 of c, the
 * decimal point, is passed through); unknown characters are blank. */
uint8_t font_segments(uint8_t c);

#endif
