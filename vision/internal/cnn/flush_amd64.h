// FLUSH_ON and FLUSH_OFF bracket a kernel with an 8-byte frame: FLUSH_ON
// (first, before the arguments are loaded: it uses AX) saves the caller's
// MXCSR at 4(SP) and sets flush-to-zero and denormals-are-zero, so that no
// multiply or add meets a subnormal operand or makes a subnormal result
// (on many Intel processors each such operation takes a slow microcode
// assist); FLUSH_OFF, before every RET, puts the caller's MXCSR back.
#define FLUSH_ON STMXCSR 0(SP); MOVL 0(SP), AX; MOVL AX, 4(SP); ORL $0x8040, AX; MOVL AX, 0(SP); LDMXCSR 0(SP)
#define FLUSH_OFF LDMXCSR 4(SP)
