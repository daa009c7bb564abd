/* A session of 1,000 lines with a function of 101. */
#include "session.h"

#include "json-import.h"

int session_long(int n);

int session_long(int n)
{
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	n++;
	return n;
}

int session_pad0(void);

int session_pad1(void);

int session_pad2(void);

int session_pad3(void);

int session_pad4(void);

int session_pad5(void);

int session_pad6(void);

int session_pad7(void);

int session_pad8(void);

int session_pad9(void);

int session_pad10(void);

int session_pad11(void);

int session_pad12(void);

int session_pad13(void);

int session_pad14(void);

int session_pad15(void);

int session_pad16(void);

int session_pad17(void);

int session_pad18(void);

int session_pad19(void);

int session_pad20(void);

int session_pad21(void);

int session_pad22(void);

int session_pad23(void);

int session_pad24(void);

int session_pad25(void);

int session_pad26(void);

int session_pad27(void);

int session_pad28(void);

int session_pad29(void);

int session_pad30(void);

int session_pad31(void);

int session_pad32(void);

int session_pad33(void);

int session_pad34(void);

int session_pad35(void);

int session_pad36(void);

int session_pad37(void);

int session_pad38(void);

int session_pad39(void);

int session_pad40(void);

int session_pad41(void);

int session_pad42(void);

int session_pad43(void);

int session_pad44(void);

int session_pad45(void);

int session_pad46(void);

int session_pad47(void);

int session_pad48(void);

int session_pad49(void);

int session_pad50(void);

int session_pad51(void);

int session_pad52(void);

int session_pad53(void);

int session_pad54(void);

int session_pad55(void);

int session_pad56(void);

int session_pad57(void);

int session_pad58(void);

int session_pad59(void);

int session_pad60(void);

int session_pad61(void);

int session_pad62(void);

int session_pad63(void);

int session_pad64(void);

int session_pad65(void);

int session_pad66(void);

int session_pad67(void);

int session_pad68(void);

int session_pad69(void);

int session_pad70(void);

int session_pad71(void);

int session_pad72(void);

int session_pad73(void);

int session_pad74(void);

int session_pad75(void);

int session_pad76(void);

int session_pad77(void);

int session_pad78(void);

int session_pad79(void);

int session_pad80(void);

int session_pad81(void);

int session_pad82(void);

int session_pad83(void);

int session_pad84(void);

int session_pad85(void);

int session_pad86(void);

int session_pad87(void);

int session_pad88(void);

int session_pad89(void);

int session_pad90(void);

int session_pad91(void);

int session_pad92(void);

int session_pad93(void);

int session_pad94(void);

int session_pad95(void);

int session_pad96(void);

int session_pad97(void);

int session_pad98(void);

int session_pad99(void);

int session_pad100(void);

int session_pad101(void);

int session_pad102(void);

int session_pad103(void);

int session_pad104(void);

int session_pad105(void);

int session_pad106(void);

int session_pad107(void);

int session_pad108(void);

int session_pad109(void);

int session_pad110(void);

int session_pad111(void);

int session_pad112(void);

int session_pad113(void);

int session_pad114(void);

int session_pad115(void);

int session_pad116(void);

int session_pad117(void);

int session_pad118(void);

int session_pad119(void);

int session_pad120(void);

int session_pad121(void);

int session_pad122(void);

int session_pad123(void);

int session_pad124(void);

int session_pad125(void);

int session_pad126(void);

int session_pad127(void);

int session_pad128(void);

int session_pad129(void);

int session_pad130(void);

int session_pad131(void);

int session_pad132(void);

int session_pad133(void);

int session_pad134(void);

int session_pad135(void);

int session_pad136(void);

int session_pad137(void);

int session_pad138(void);

int session_pad139(void);

int session_pad140(void);

int session_pad141(void);

int session_pad142(void);

int session_pad143(void);

int session_pad144(void);

int session_pad145(void);

int session_pad146(void);

int session_pad147(void);

int session_pad148(void);

int session_pad149(void);

int session_pad150(void);

int session_pad151(void);

int session_pad152(void);

int session_pad153(void);

int session_pad154(void);

int session_pad155(void);

int session_pad156(void);

int session_pad157(void);

int session_pad158(void);

int session_pad159(void);

int session_pad160(void);

int session_pad161(void);

int session_pad162(void);

int session_pad163(void);

int session_pad164(void);

int session_pad165(void);

int session_pad166(void);

int session_pad167(void);

int session_pad168(void);

int session_pad169(void);

int session_pad170(void);

int session_pad171(void);

int session_pad172(void);

int session_pad173(void);

int session_pad174(void);

int session_pad175(void);

int session_pad176(void);

int session_pad177(void);

int session_pad178(void);

int session_pad179(void);

int session_pad180(void);

int session_pad181(void);

int session_pad182(void);

int session_pad183(void);

int session_pad184(void);

int session_pad185(void);

int session_pad186(void);

int session_pad187(void);

int session_pad188(void);

int session_pad189(void);

int session_pad190(void);

int session_pad191(void);

int session_pad192(void);

int session_pad193(void);

int session_pad194(void);

int session_pad195(void);

int session_pad196(void);

int session_pad197(void);

int session_pad198(void);

int session_pad199(void);

int session_pad200(void);

int session_pad201(void);

int session_pad202(void);

int session_pad203(void);

int session_pad204(void);

int session_pad205(void);

int session_pad206(void);

int session_pad207(void);

int session_pad208(void);

int session_pad209(void);

int session_pad210(void);

int session_pad211(void);

int session_pad212(void);

int session_pad213(void);

int session_pad214(void);

int session_pad215(void);

int session_pad216(void);

int session_pad217(void);

int session_pad218(void);

int session_pad219(void);

int session_pad220(void);

int session_pad221(void);

int session_pad222(void);

int session_pad223(void);

int session_pad224(void);

int session_pad225(void);

int session_pad226(void);

int session_pad227(void);

int session_pad228(void);

int session_pad229(void);

int session_pad230(void);

int session_pad231(void);

int session_pad232(void);

int session_pad233(void);

int session_pad234(void);

int session_pad235(void);

int session_pad236(void);

int session_pad237(void);

int session_pad238(void);

int session_pad239(void);

int session_pad240(void);

int session_pad241(void);

int session_pad242(void);

int session_pad243(void);

int session_pad244(void);

int session_pad245(void);

int session_pad246(void);

int session_pad247(void);

int session_pad248(void);

int session_pad249(void);

int session_pad250(void);

int session_pad251(void);

int session_pad252(void);

int session_pad253(void);

int session_pad254(void);

int session_pad255(void);

int session_pad256(void);

int session_pad257(void);

int session_pad258(void);

int session_pad259(void);

int session_pad260(void);

int session_pad261(void);

int session_pad262(void);

int session_pad263(void);

int session_pad264(void);

int session_pad265(void);

int session_pad266(void);

int session_pad267(void);

int session_pad268(void);

int session_pad269(void);

int session_pad270(void);

int session_pad271(void);

int session_pad272(void);

int session_pad273(void);

int session_pad274(void);

int session_pad275(void);

int session_pad276(void);

int session_pad277(void);

int session_pad278(void);

int session_pad279(void);

int session_pad280(void);

int session_pad281(void);

int session_pad282(void);

int session_pad283(void);

int session_pad284(void);

int session_pad285(void);

int session_pad286(void);

int session_pad287(void);

int session_pad288(void);

int session_pad289(void);

int session_pad290(void);

int session_pad291(void);

int session_pad292(void);

int session_pad293(void);

int session_pad294(void);

int session_pad295(void);

int session_pad296(void);

int session_pad297(void);

int session_pad298(void);

int session_pad299(void);

int session_pad300(void);

int session_pad301(void);

int session_pad302(void);

int session_pad303(void);

int session_pad304(void);

int session_pad305(void);

int session_pad306(void);

int session_pad307(void);

int session_pad308(void);

int session_pad309(void);

int session_pad310(void);

int session_pad311(void);

int session_pad312(void);

int session_pad313(void);

int session_pad314(void);

int session_pad315(void);

int session_pad316(void);

int session_pad317(void);

int session_pad318(void);

int session_pad319(void);

int session_pad320(void);

int session_pad321(void);

int session_pad322(void);

int session_pad323(void);

int session_pad324(void);

int session_pad325(void);

int session_pad326(void);

int session_pad327(void);

int session_pad328(void);

int session_pad329(void);

int session_pad330(void);

int session_pad331(void);

int session_pad332(void);

int session_pad333(void);

int session_pad334(void);

int session_pad335(void);

int session_pad336(void);

int session_pad337(void);

int session_pad338(void);

int session_pad339(void);

int session_pad340(void);

int session_pad341(void);

int session_pad342(void);

int session_pad343(void);

int session_pad344(void);

int session_pad345(void);

int session_pad346(void);

int session_pad347(void);

int session_pad348(void);

int session_pad349(void);

int session_pad350(void);

int session_pad351(void);

int session_pad352(void);

int session_pad353(void);

int session_pad354(void);

int session_pad355(void);

int session_pad356(void);

int session_pad357(void);

int session_pad358(void);

int session_pad359(void);

int session_pad360(void);

int session_pad361(void);

int session_pad362(void);

int session_pad363(void);

int session_pad364(void);

int session_pad365(void);

int session_pad366(void);

int session_pad367(void);

int session_pad368(void);

int session_pad369(void);

int session_pad370(void);

int session_pad371(void);

int session_pad372(void);

int session_pad373(void);

int session_pad374(void);

int session_pad375(void);

int session_pad376(void);

int session_pad377(void);

int session_pad378(void);

int session_pad379(void);

int session_pad380(void);

int session_pad381(void);

int session_pad382(void);

int session_pad383(void);

int session_pad384(void);

int session_pad385(void);

int session_pad386(void);

int session_pad387(void);

int session_pad388(void);

int session_pad389(void);

int session_pad390(void);

int session_pad391(void);

int session_pad392(void);

int session_pad393(void);

int session_pad394(void);

int session_pad395(void);

int session_pad396(void);

int session_pad397(void);

int session_pad398(void);

int session_pad399(void);

int session_pad400(void);

int session_pad401(void);

int session_pad402(void);

int session_pad403(void);

int session_pad404(void);

int session_pad405(void);

int session_pad406(void);

int session_pad407(void);

int session_pad408(void);

int session_pad409(void);

int session_pad410(void);

int session_pad411(void);

int session_pad412(void);

int session_pad413(void);

int session_pad414(void);

int session_pad415(void);

int session_pad416(void);

int session_pad417(void);

int session_pad418(void);

int session_pad419(void);

int session_pad420(void);

int session_pad421(void);

int session_pad422(void);

int session_pad423(void);

int session_pad424(void);

int session_pad425(void);

int session_pad426(void);

int session_pad427(void);

int session_pad428(void);

int session_pad429(void);

int session_pad430(void);

int session_pad431(void);

int session_pad432(void);

int session_pad433(void);

int session_pad434(void);

int session_pad435(void);

int session_pad436(void);

int session_pad437(void);

int session_pad438(void);

int session_pad439(void);

int session_pad440(void);

int session_pad441(void);

int session_pad442(void);

int session_pad443(void);

int session_pad444(void);
int session_last(void);
