<?xml version="1.0"?>
<!DOCTYPE peerAnnotation [
 <!ELEMENT peerAnnotation (pyramid,annotation)>
 <!ELEMENT annotation (text,peerscu+)>
 <!ELEMENT peerscu (contributor)*>
 <!ATTLIST peerscu uid CDATA #REQUIRED
                   label CDATA #REQUIRED
                   comment CDATA #IMPLIED>
 <!ELEMENT pyramid (startDocumentRegEx?,text,scu*)>
 <!ELEMENT startDocumentRegEx (#PCDATA)>
 <!ELEMENT text (line*)>
 <!ELEMENT line (#PCDATA)>
 <!ELEMENT scu (contributor)+>
 <!ATTLIST scu uid CDATA #REQUIRED
               label CDATA #REQUIRED
               comment CDATA #IMPLIED>
 <!ELEMENT contributor (part)+>
 <!ATTLIST contributor label CDATA #REQUIRED
                       comment CDATA #IMPLIED>
 <!ELEMENT part EMPTY>
 <!ATTLIST part label CDATA #REQUIRED
                start CDATA #REQUIRED
                end   CDATA #REQUIRED>
]>

<peerAnnotation>
<pyramid>
<startDocumentRegEx><![CDATA[[-]*\nD[0-9]*\.M\.[0-9]*\.[A-Z]\.[A-Z]\n[-]*\n]]></startDocumentRegEx>
 <text>
  <line>#2</line>
  <line></line>
  <line></line>
  <line>---------------</line>
  <line>D0901.M.100.A.A</line>
  <line>---------------</line>
  <line></line>
  <line>Protests continued against the Jabiluka uranium mine.</line>
  <line>A month later, the U.N.</line>
  <line>Bureau called for closing the mine.</line>
  <line></line>
  <line>---------------</line>
  <line>D0901.M.100.A.B</line>
  <line>---------------</line>
  <line></line>
  <line>Protesters blockaded the mine site.</line>
  <line>The U.N. report recommended that the mine be stopped.</line>
  <line></line>
 </text>
 <scu uid="1" label="Protests against the mine">
  <contributor label="Protests continued against the Jabiluka uranium mine">
   <part label="Protests continued against the Jabiluka uranium mine" start="54" end="106"/>
  </contributor>
  <contributor label="Protesters blockaded the mine site">
   <part label="Protesters blockaded the mine site" start="218" end="252"/>
  </contributor>
 </scu>
 <scu uid="2" label="UN called for closing the mine">
  <contributor label="the U.N.Bureau called for closing the mine">
   <part label="the U.N.Bureau called for closing the mine" start="123" end="166"/>
  </contributor>
  <contributor label="The U.N. report recommended that the mine be stopped">
   <part label="The U.N. report recommended that the mine be stopped" start="254" end="306"/>
  </contributor>
 </scu>
 <scu uid="3" label="A month later">
  <contributor label="A month later">
   <part label="A month later" start="108" end="121"/>
  </contributor>
 </scu>
</pyramid>
<annotation>
 <text>
  <line>The protests against the mine continued.</line>
  <line>It rained all week.</line>
 </text>
 <peerscu uid="1" label="(2) Protests against the mine">
  <contributor label="The protests against the mine continued">
   <part label="The protests against the mine continued" start="0" end="39"/>
  </contributor>
 </peerscu>
 <peerscu uid="2" label="(2) UN called for closing the mine">
 </peerscu>
 <peerscu uid="3" label="(1) A month later">
 </peerscu>
 <peerscu uid="0" label="All non-matching SCUs go here">
  <contributor label="It rained all week">
   <part label="It rained all week" start="41" end="59"/>
  </contributor>
 </peerscu>
</annotation>
</peerAnnotation>
